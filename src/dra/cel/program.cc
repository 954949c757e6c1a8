// File: dra/cel/program.cc
//
// Program::Evaluate: a tree walk over the compiled nodes (see program.h). Values point into the
// device and the program; nothing is allocated on the success path.
#include "dra/cel/program.h"

#include <fmt/format.h>

namespace wasched::dra::cel {
namespace {

Value Error(EvalErrorCode code, int32_t node) {
  Value v;
  v.type = ValueType::kError;
  v.error = code;
  v.error_node = node;
  return v;
}
Value Bool(bool b) {
  Value v;
  v.type = ValueType::kBool;
  v.b = b;
  return v;
}
Value Int(int64_t i) {
  Value v;
  v.type = ValueType::kInt;
  v.i = i;
  return v;
}

// QualifiedMatch: attribute key `key` (as the driver wrote it) names <domain>/<name>: either
// "domain/name", or "name" without a domain when `domain` is the device's driver (upstream: an
// unqualified name lives in the driver's domain).
bool QualifiedMatch(std::string_view key, std::string_view driver, std::string_view domain,
                    std::string_view name) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return domain == driver && key == name;
  return key.substr(0, slash) == domain && key.substr(slash + 1) == name;
}

bool HasDomain(std::string_view key, std::string_view driver, std::string_view domain) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return domain == driver;
  return key.substr(0, slash) == domain;
}

int64_t Utf8Length(std::string_view s) {
  int64_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

// Equal: CEL heterogeneous equality for the subset's types.
bool Equal(const Value& x, const Value& y, const std::vector<Node>& nodes) {
  if (x.type != y.type) return false;
  switch (x.type) {
    case ValueType::kNull: return true;
    case ValueType::kBool: return x.b == y.b;
    case ValueType::kInt: return x.i == y.i;
    case ValueType::kString: return x.s == y.s;
    case ValueType::kVersion: return CompareSemVer(*x.version, *y.version) == 0;
    case ValueType::kQuantity: return x.quantity_nano == y.quantity_nano;
    case ValueType::kList: return x.list_node == y.list_node;
    case ValueType::kError: return false;
  }
  return false;
}

}  // namespace

Value Program::Evaluate(const DeviceView& device) const { return Eval(root_, device); }

bool Program::Matches(const DeviceView& device, std::string* error) const {
  const Value v = Eval(root_, device);
  if (v.type == ValueType::kBool) return v.b;
  if (error) {
    *error = v.type == ValueType::kError ? ErrorText(v) : "expression did not evaluate to bool";
  }
  return false;
}

std::string Program::ErrorText(const Value& v) const {
  const Node* n = v.error_node >= 0 ? &nodes_[static_cast<size_t>(v.error_node)] : nullptr;
  switch (v.error) {
    case EvalErrorCode::kNoSuchKey:
      if (n && (n->kind == NodeKind::kAttribute || n->kind == NodeKind::kCapacity)) {
        return fmt::format("no such key: {}", n->name);
      }
      return "no such key";
    case EvalErrorCode::kNoSuchOverload:
      return n && !n->text.empty() ? fmt::format("no such overload: {}", n->text)
                                   : "no such overload";
    case EvalErrorCode::kNotBool: return "expression did not evaluate to bool";
    case EvalErrorCode::kOverflow: return "integer overflow";
    case EvalErrorCode::kNone: break;
  }
  return "evaluation error";
}

Value Program::Eval(int32_t index, const DeviceView& dev) const {
  const Node& n = nodes_[static_cast<size_t>(index)];
  switch (n.kind) {
    case NodeKind::kLiteral: {
      Value v = n.literal;
      if (v.type == ValueType::kString) v.s = n.text;
      return v;
    }
    case NodeKind::kList: {
      Value v;
      v.type = ValueType::kList;
      v.list_node = index;
      return v;
    }
    case NodeKind::kDriver: {
      Value v;
      v.type = ValueType::kString;
      v.s = dev.driver;
      return v;
    }
    case NodeKind::kAttribute:
    case NodeKind::kHasAttribute: {
      for (const auto& [key, attr] : dev.device->attributes) {
        if (!QualifiedMatch(key, dev.driver, n.domain, n.name)) continue;
        if (n.kind == NodeKind::kHasAttribute) return Bool(true);
        Value v;
        switch (attr.kind) {
          case api::DeviceAttribute::Kind::kInt: v = Int(attr.int_value); break;
          case api::DeviceAttribute::Kind::kBool: v = Bool(attr.bool_value); break;
          case api::DeviceAttribute::Kind::kString:
            v.type = ValueType::kString;
            v.s = attr.string_value;
            break;
          case api::DeviceAttribute::Kind::kVersion:
            v.type = ValueType::kVersion;
            v.version = &attr.version;
            break;
        }
        return v;
      }
      return n.kind == NodeKind::kHasAttribute ? Bool(false)
                                               : Error(EvalErrorCode::kNoSuchKey, index);
    }
    case NodeKind::kCapacity:
    case NodeKind::kHasCapacity: {
      for (const auto& [key, q] : dev.device->capacity) {
        if (!QualifiedMatch(key, dev.driver, n.domain, n.name)) continue;
        if (n.kind == NodeKind::kHasCapacity) return Bool(true);
        Value v;
        v.type = ValueType::kQuantity;
        v.quantity_nano = q.Nano();
        return v;
      }
      return n.kind == NodeKind::kHasCapacity ? Bool(false)
                                              : Error(EvalErrorCode::kNoSuchKey, index);
    }
    case NodeKind::kDomainInAttributes:
    case NodeKind::kDomainInCapacity: {
      const Value d = Eval(n.a, dev);
      if (d.type == ValueType::kError) return d;
      if (d.type != ValueType::kString) return Error(EvalErrorCode::kNoSuchOverload, index);
      if (n.kind == NodeKind::kDomainInAttributes) {
        for (const auto& entry : dev.device->attributes) {
          if (HasDomain(entry.first, dev.driver, d.s)) return Bool(true);
        }
      } else {
        for (const auto& entry : dev.device->capacity) {
          if (HasDomain(entry.first, dev.driver, d.s)) return Bool(true);
        }
      }
      return Bool(false);
    }
    case NodeKind::kNot: {
      const Value v = Eval(n.a, dev);
      if (v.type == ValueType::kError) return v;
      if (v.type != ValueType::kBool) return Error(EvalErrorCode::kNoSuchOverload, index);
      return Bool(!v.b);
    }
    case NodeKind::kNeg: {
      const Value v = Eval(n.a, dev);
      if (v.type == ValueType::kError) return v;
      if (v.type != ValueType::kInt) return Error(EvalErrorCode::kNoSuchOverload, index);
      if (v.i == INT64_MIN) return Error(EvalErrorCode::kOverflow, index);
      return Int(-v.i);
    }
    case NodeKind::kAnd:
    case NodeKind::kOr: {
      // CEL: commutative short-circuit; an error loses to the deciding value.
      const bool decisive = n.kind == NodeKind::kOr;
      const Value l = Eval(n.a, dev);
      if (l.type == ValueType::kBool && l.b == decisive) return l;
      const Value r = Eval(n.b, dev);
      if (r.type == ValueType::kBool && r.b == decisive) return r;
      if (l.type == ValueType::kError) return l;
      if (r.type == ValueType::kError) return r;
      if (l.type != ValueType::kBool || r.type != ValueType::kBool) {
        return Error(EvalErrorCode::kNoSuchOverload, index);
      }
      return Bool(!decisive);
    }
    case NodeKind::kTernary: {
      const Value c = Eval(n.a, dev);
      if (c.type == ValueType::kError) return c;
      if (c.type != ValueType::kBool) return Error(EvalErrorCode::kNoSuchOverload, index);
      return Eval(c.b ? n.b : n.c, dev);
    }
    case NodeKind::kEq:
    case NodeKind::kNe: {
      const Value l = Eval(n.a, dev);
      if (l.type == ValueType::kError) return l;
      const Value r = Eval(n.b, dev);
      if (r.type == ValueType::kError) return r;
      const bool eq = Equal(l, r, nodes_);
      return Bool(n.kind == NodeKind::kEq ? eq : !eq);
    }
    case NodeKind::kLt:
    case NodeKind::kLe:
    case NodeKind::kGt:
    case NodeKind::kGe: {
      const Value l = Eval(n.a, dev);
      if (l.type == ValueType::kError) return l;
      const Value r = Eval(n.b, dev);
      if (r.type == ValueType::kError) return r;
      if (l.type != r.type) return Error(EvalErrorCode::kNoSuchOverload, index);
      int cmp = 0;
      if (l.type == ValueType::kInt) cmp = l.i < r.i ? -1 : (l.i > r.i ? 1 : 0);
      else if (l.type == ValueType::kString) cmp = l.s.compare(r.s);
      else if (l.type == ValueType::kBool) cmp = static_cast<int>(l.b) - static_cast<int>(r.b);
      else return Error(EvalErrorCode::kNoSuchOverload, index);
      switch (n.kind) {
        case NodeKind::kLt: return Bool(cmp < 0);
        case NodeKind::kLe: return Bool(cmp <= 0);
        case NodeKind::kGt: return Bool(cmp > 0);
        default: return Bool(cmp >= 0);
      }
    }
    case NodeKind::kIn: {
      const Value l = Eval(n.a, dev);
      if (l.type == ValueType::kError) return l;
      const Node& list = nodes_[static_cast<size_t>(n.b)];
      for (int32_t item : list.items) {
        const Value v = Eval(item, dev);
        if (v.type == ValueType::kError) return v;
        if (Equal(l, v, nodes_)) return Bool(true);
      }
      return Bool(false);
    }
    case NodeKind::kStartsWith:
    case NodeKind::kEndsWith:
    case NodeKind::kContains: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      const Value a = Eval(n.b, dev);
      if (a.type == ValueType::kError) return a;
      if (t.type != ValueType::kString || a.type != ValueType::kString) {
        return Error(EvalErrorCode::kNoSuchOverload, index);
      }
      if (n.kind == NodeKind::kStartsWith) return Bool(t.s.starts_with(a.s));
      if (n.kind == NodeKind::kEndsWith) return Bool(t.s.ends_with(a.s));
      return Bool(t.s.find(a.s) != std::string_view::npos);
    }
    case NodeKind::kMatches: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      if (t.type != ValueType::kString) return Error(EvalErrorCode::kNoSuchOverload, index);
      return Bool(re2::RE2::PartialMatch(re2::StringPiece(t.s.data(), t.s.size()), *n.regex));
    }
    case NodeKind::kSize: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      if (t.type == ValueType::kString) return Int(Utf8Length(t.s));
      if (t.type == ValueType::kList) {
        return Int(static_cast<int64_t>(nodes_[static_cast<size_t>(t.list_node)].items.size()));
      }
      return Error(EvalErrorCode::kNoSuchOverload, index);
    }
    case NodeKind::kIsSemver: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      if (t.type != ValueType::kString) return Error(EvalErrorCode::kNoSuchOverload, index);
      return Bool(api::ParseSemVer(t.s).has_value());
    }
    case NodeKind::kCompareTo:
    case NodeKind::kIsGreaterThan:
    case NodeKind::kIsLessThan: {
      const Value l = Eval(n.a, dev);
      if (l.type == ValueType::kError) return l;
      const Value r = Eval(n.b, dev);
      if (r.type == ValueType::kError) return r;
      if (l.type != r.type) return Error(EvalErrorCode::kNoSuchOverload, index);
      int cmp = 0;
      if (l.type == ValueType::kQuantity) {
        cmp = l.quantity_nano < r.quantity_nano ? -1 : (l.quantity_nano > r.quantity_nano ? 1 : 0);
      } else if (l.type == ValueType::kVersion) {
        const int c = CompareSemVer(*l.version, *r.version);
        cmp = c < 0 ? -1 : (c > 0 ? 1 : 0);
      } else {
        return Error(EvalErrorCode::kNoSuchOverload, index);
      }
      if (n.kind == NodeKind::kCompareTo) return Int(cmp);
      return Bool(n.kind == NodeKind::kIsGreaterThan ? cmp > 0 : cmp < 0);
    }
    case NodeKind::kAsInteger: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      if (t.type != ValueType::kQuantity) return Error(EvalErrorCode::kNoSuchOverload, index);
      constexpr __int128 kNano = 1000000000;
      if (t.quantity_nano % kNano != 0) return Error(EvalErrorCode::kOverflow, index);
      const __int128 units = t.quantity_nano / kNano;
      if (units > INT64_MAX || units < INT64_MIN) return Error(EvalErrorCode::kOverflow, index);
      return Int(static_cast<int64_t>(units));
    }
    case NodeKind::kMajor:
    case NodeKind::kMinor:
    case NodeKind::kPatch: {
      const Value t = Eval(n.a, dev);
      if (t.type == ValueType::kError) return t;
      if (t.type != ValueType::kVersion) return Error(EvalErrorCode::kNoSuchOverload, index);
      const uint64_t x = n.kind == NodeKind::kMajor   ? t.version->major
                         : n.kind == NodeKind::kMinor ? t.version->minor
                                                      : t.version->patch;
      if (x > static_cast<uint64_t>(INT64_MAX)) return Error(EvalErrorCode::kOverflow, index);
      return Int(static_cast<int64_t>(x));
    }
  }
  return Error(EvalErrorCode::kNoSuchOverload, index);
}

}  // namespace wasched::dra::cel
