// File: api/quantity.h
//
// Kubernetes resource quantities (`500m`, `0.5`, `1e3`, `1Ki`…`1Ei`, `1k`…`1E`, `100n`) parsed
// exactly as `k8s.io/apimachinery/pkg/api/resource.ParseQuantity` accepts them, and converted to
// the integers the scheduler works with: milli-units for CPU, whole units (bytes, counts) for
// everything else. Rounding is upward, as upstream's `Quantity.MilliValue()` / `Value()`.
//
// Example:
//   auto q = api::Quantity::Parse("1.5Gi");      // q->Value() == 1610612736 (bytes)
//   auto c = api::Quantity::Parse("250m");       // c->MilliValue() == 250
//   auto bad = api::Quantity::Parse("1K");       // !bad: "unable to parse quantity's suffix"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

namespace wasched::api {

// Quantity: an exact decimal quantity held in nano-units (10^-9), the finest unit upstream
// represents. Values finer than 1n round up to 1n, as upstream does.
// Range: |value| < ~1.7e29 units. The API server accepts any size (an inf.Dec), and so does
// Parse: a binary-suffix value above 2^63-1 units is capped there, as upstream's ParseQuantity
// caps it, and a larger decimal one (`1e100`) is held at the int128 bound, where Value() /
// MilliValue() fail (upstream's are not meaningful there either: apimachinery pkg/api/resource
// amount.go, scaledValue).
class Quantity {
 public:
  Quantity() = default;

  // Parse: upstream grammar `<sign><digits>[.<digits>][<suffix>]` where suffix is a binary SI
  // suffix (Ki Mi Gi Ti Pi Ei), a decimal SI suffix (n u m "" k M G T P E) or a decimal exponent
  // (e<int> / E<int>). Errors (as upstream's messages): "quantities must match the regular
  // expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'", "unable to parse quantity's
  // suffix"; a value beyond the range above is not an error. O(length).
  [[nodiscard]] static tl::expected<Quantity, std::string> Parse(std::string_view text);

  // FromInt: `units` whole units (e.g. bytes).
  [[nodiscard]] static Quantity FromInt(int64_t units);
  // FromMilli: `milli` thousandths of a unit (e.g. milli-CPU).
  [[nodiscard]] static Quantity FromMilli(int64_t milli);

  // MilliValue: the value in milli-units, rounded up; error when it does not fit int64.
  [[nodiscard]] tl::expected<int64_t, std::string> MilliValue() const;
  // Value: the value in whole units, rounded up; error when it does not fit int64.
  [[nodiscard]] tl::expected<int64_t, std::string> Value() const;

  [[nodiscard]] bool IsNegative() const { return nano_ < 0; }
  [[nodiscard]] __int128 Nano() const { return nano_; }

  friend bool operator==(const Quantity&, const Quantity&) = default;

 private:
  explicit Quantity(__int128 nano) : nano_(nano) {}
  __int128 nano_ = 0;
};

// IsMilliResource: true for resources whose canonical integer unit is the milli-unit
// (upstream: `cpu`, `requests.cpu`, `limits.cpu`); everything else is whole units.
[[nodiscard]] bool IsMilliResource(std::string_view resource_name);

// CanonicalAmount: `q` in the canonical integer unit of `resource_name` (milli-CPU, bytes,
// counts). Errors when the value overflows int64.
[[nodiscard]] tl::expected<int64_t, std::string> CanonicalAmount(std::string_view resource_name,
                                                                 const Quantity& q);

// FormatAmount: renders a canonical amount back as a quantity string (`1500m`, `2`, `512Mi`),
// for messages and output. O(1).
[[nodiscard]] std::string FormatAmount(std::string_view resource_name, int64_t amount);

}  // namespace wasched::api
