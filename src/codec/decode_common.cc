// File: codec/decode_common.cc
//
// Shared decoders: ObjectMeta, resource lists, PreemptionPolicy, Condition, RFC 3339 time.
#include "codec/decode_common.h"

#include <limits>

#include <fmt/format.h>

#include "api/quantity.h"

namespace wasched::codec::internal {
namespace {

// Fields of metav1.ObjectMeta the server maintains; they do not matter to scheduling.
constexpr std::string_view kIgnoredMetaFields[] = {
    "resourceVersion", "selfLink", "managedFields", "finalizers", "deletionTimestamp",
    "deletionGracePeriodSeconds"};

bool ParseDigits(std::string_view s, size_t pos, size_t count, int* out) {
  if (pos + count > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + count; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

// DaysFromCivil: days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int m, int d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

void DecodeOwnerReference(const Reader& r, api::OwnerReference* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "apiVersion") f.Read(&out->api_version);
    else if (key == "kind") f.Read(&out->kind);
    else if (key == "name") f.Read(&out->name);
    else if (key == "uid") f.Read(&out->uid);
    else if (key == "controller") f.Read(&out->controller);
    else if (key == "blockOwnerDeletion") f.Read(&out->block_owner_deletion);
    else return false;
    return true;
  });
}

}  // namespace

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  // 2006-01-02T15:04:05[.fraction](Z|±07:00)
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!ParseDigits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' ||
      !ParseDigits(s, 5, 2, &month) || s[7] != '-' || !ParseDigits(s, 8, 2, &day) ||
      s[10] != 'T' || !ParseDigits(s, 11, 2, &hour) || s[13] != ':' ||
      !ParseDigits(s, 14, 2, &minute) || s[16] != ':' || !ParseDigits(s, 17, 2, &second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || hour > 23 ||
      minute > 59 || second > 59) {
    return std::nullopt;
  }
  size_t pos = 19;
  if (s[pos] == '.') {
    ++pos;
    const size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return std::nullopt;
  }
  int64_t offset_seconds = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    const int sign = s[pos] == '-' ? -1 : 1;
    int oh = 0, om = 0;
    if (!ParseDigits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !ParseDigits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset_seconds = sign * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  return DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second -
         offset_seconds;
}

void DecodeTimestamp(const Reader& r, std::optional<int64_t>* out) {
  std::string text;
  if (r.IsNull()) return;
  if (r.Kind() != ValueKind::kString) {
    r.TypeError("string");
    return;
  }
  r.Read(&text);
  std::optional<int64_t> seconds = ParseRfc3339(text);
  if (!seconds) {
    r.Error(FieldErrorType::kInvalid, QuoteValue(text),
            "must be an RFC 3339 date-time, e.g. \"2024-05-01T12:00:00Z\"");
    return;
  }
  *out = seconds;
}

void DecodeObjectMeta(const Reader& metadata, bool namespaced, api::ObjectMeta* meta) {
  bool name_mistyped = false;  // a name of another JSON type (`name: y` is a YAML 1.1 boolean)
  metadata.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") {
      name_mistyped = !f.IsNull() && f.Kind() != ValueKind::kString;
      f.Read(&meta->name);
    } else if (key == "generateName") f.Read(&meta->generate_name);
    else if (key == "namespace") f.Read(&meta->namespace_);
    else if (key == "uid") f.Read(&meta->uid);
    else if (key == "generation") f.Read(&meta->generation);
    else if (key == "labels") f.Read(&meta->labels);
    else if (key == "annotations") f.Read(&meta->annotations);
    else if (key == "creationTimestamp") DecodeTimestamp(f, &meta->creation_timestamp);
    else if (key == "ownerReferences") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeOwnerReference(item, &meta->owner_references.emplace_back());
      });
    } else {
      return IsOneOf(key, kIgnoredMetaFields);
    }
    return true;
  });
  if (namespaced) {
    if (meta->namespace_.empty()) meta->namespace_ = "default";
  } else {
    meta->namespace_.clear();
  }
  // An object with generateName and no name is named when the whole input is loaded
  // (codec/generated_names.h), as the API server names it on create.
  // A mistyped name is the object's one error, as upstream's JSON decoding stops at it.
  if (meta->name.empty() && meta->generate_name.empty() && !name_mistyped) {
    metadata.diagnostics()->AddError(FieldError{FieldErrorType::kRequired,
                                                metadata.ChildPath("name"), "",
                                                "name or generateName is required", ""});
  }
}

void DecodeResourceList(const Reader& r, api::ResourceList* out,
                        std::map<std::string, std::string>* non_integer) {
  r.ForEachEntry([&](std::string_view name_view, const Reader& value) {
    const std::string name(name_view);  // the map key of every insertion below
    if (value.IsNull()) {  // upstream Quantity.UnmarshalJSON: null is zero
      (*out)[name] = 0;
      return;
    }
    std::optional<std::string> text = value.ScalarText();
    if (!text) return;
    auto quantity = api::Quantity::Parse(*text);
    if (!quantity) {
      value.Error(FieldErrorType::kInvalid, QuoteValue(*text), quantity.error());
      return;
    }
    auto amount = api::CanonicalAmount(name, *quantity);
    // A binary-suffix value above 2^63-1 units is capped there by ParseQuantity itself; no
    // binary-suffix text other than such a capped one comes to exactly INT64_MAX units.
    const bool capped = amount && *amount == std::numeric_limits<int64_t>::max() &&
                        !text->empty() && text->back() == 'i';
    if (!amount || capped) {
      // The API server accepts any size (an inf.Dec; binary suffixes capped at 2^63-1 units),
      // and its Quantity.Value() beyond int64 is not meaningful (apimachinery
      // pkg/api/resource amount.go scaledValue). wasched counts in int64: saturate, and say so.
      const int64_t saturated = quantity->IsNegative() ? -std::numeric_limits<int64_t>::max()
                                                       : std::numeric_limits<int64_t>::max();
      const int64_t taken = saturated;
      value.Warn(fmt::format(
          "{}: quantity {} is beyond what the scheduler can represent ({} in int64); it is "
          "taken as {}",
          value.Path(), QuoteValue(*text),
          api::IsMilliResource(name) ? "milli-units" : "whole units", taken));
      (*out)[name] = taken;
      return;
    }
    (*out)[name] = *amount;
    if (non_integer != nullptr) {
      auto milli = quantity->MilliValue();
      if (milli && *milli % 1000 != 0) (*non_integer)[name] = *text;
    }
  });
}

void DecodePreemptionPolicy(const Reader& r, std::optional<api::PreemptionPolicy>* out) {
  if (r.IsNull()) return;
  if (r.Kind() != ValueKind::kString) {
    r.TypeError("string");
    return;
  }
  const std::string_view text = r.Scalar();
  if (text == "PreemptLowerPriority") {
    *out = api::PreemptionPolicy::kPreemptLowerPriority;
  } else if (text == "Never") {
    *out = api::PreemptionPolicy::kNever;
  } else {
    r.Error(FieldErrorType::kNotSupported, QuoteValue(text),
            "supported values: \"Never\", \"PreemptLowerPriority\"");
  }
}

void DecodeCondition(const Reader& r, api::Condition* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "type") f.Read(&out->type);
    else if (key == "status") f.Read(&out->status);
    else if (key == "reason") f.Read(&out->reason);
    else if (key == "message") f.Read(&out->message);
    else if (key == "observedGeneration") f.Read(&out->observed_generation);
    else if (key == "lastTransitionTime") {
      std::optional<int64_t> t;
      DecodeTimestamp(f, &t);
      out->last_transition_time = t.value_or(0);
    } else {
      return false;
    }
    return true;
  });
}

bool DecodeEmptyStruct(const Reader& r) {
  if (r.IsNull()) {
    if (r.IsPresent()) {
      r.Warn(fmt::format("field \"{}\" is null and therefore unset; write `{{}}` to set it",
                         r.Path()));
    }
    return false;
  }
  if (!r.ExpectKind(ValueKind::kMap)) return false;
  r.ForEachField([](std::string_view, const Reader&) { return false; });
  return true;
}

}  // namespace wasched::codec::internal
