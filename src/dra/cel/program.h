// File: dra/cel/program.h
//
// A compiled DRA device-selector expression (CEL) and its evaluation against one device.
// Upstream: kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/cel/compile.go
// (the `device` variable: `device.driver`, `device.attributes[<domain>].<name>`,
// `device.capacity[<domain>].<name>`; the Kubernetes CEL libraries for quantity and semver).
//
// The subset wasched evaluates — what real drivers' DeviceClasses and claims use:
//   device.driver
//   device.attributes["<domain>"].<name>, device.attributes["<domain>"]["<name>"]
//   device.capacity["<domain>"].<name> (quantities)
//   has(device.attributes["<domain>"].<name>), "<domain>" in device.attributes
//   == != < <= > >= on int / string / bool / version-free values; && || ! ?: ( )
//   x in [literal, ...]
//   int, string, bool, null literals; lists of them
//   <string>.startsWith / endsWith / contains / matches("<RE2 pattern literal>"), size()
//     (`matches` runs RE2, as cel-go's Go regexp does: linear in the subject, no backtracking,
//     an unanchored search; a pattern RE2 rejects is a compile error)
//   quantity("<literal>"), <quantity>.compareTo / isGreaterThan / isLessThan(<quantity>),
//   <quantity>.asInteger()
//   semver("<literal>"), isSemver(<string>), <version>.compareTo / isGreaterThan / isLessThan /
//   major() / minor() / patch()
// Anything else is a compile error naming the construct (`function "foo" is not supported by
// wasched`). Compile once; Evaluate allocates nothing (except inside `matches`, whose
// RE2 search may fill its DFA cache; the allocator caches selector verdicts per device).
//
// Semantics as CEL: `&&` / `||` are commutative over errors (false && error == false);
// a missing attribute is a runtime error "no such key: <name>"; comparing values of different
// types with == is false (heterogeneous equality), ordering them is "no such overload".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>
#include <tl/expected.hpp>

#include "api/dra/device.h"

namespace wasched::dra::cel {

// DeviceView: what an expression sees of a device: its driver (the slice's) and the device.
struct DeviceView {
  std::string_view driver;
  const api::Device* device = nullptr;
};

// CompileError: why an expression was rejected. `unsupported` marks valid CEL that wasched does
// not evaluate (report as NotSupported); otherwise the text is not valid CEL (Invalid).
struct CompileError {
  bool unsupported = false;
  std::string message;
};

// kMaxDepth: nesting limit; deeper input is rejected ("max recursion depth exceeded", as cel-go),
// so any string compiles or fails without exhausting the stack. cel-go's parser default
// (parser.MaxRecursionDepth; Kubernetes does not change it) is 250 and counts nested expressions,
// relations, selections, calls and indexes; a flat `&&` / `||` chain is one level there (the
// terms are balanced into a tree), and here too. wasched counts parentheses and other nested
// expressions, conditionals, comparisons, unary operators and indexes.
inline constexpr int kMaxDepth = 250;
// kMaxLength: longest expression accepted (upstream resource.k8s.io CELSelectorExpressionMaxLength).
inline constexpr size_t kMaxLength = 10 * 1024;

// ValueType: the runtime types of the subset.
enum class ValueType : uint8_t { kError, kNull, kBool, kInt, kString, kVersion, kQuantity, kList };

// EvalErrorCode: runtime errors (CEL's messages).
enum class EvalErrorCode : uint8_t { kNone, kNoSuchKey, kNoSuchOverload, kNotBool, kOverflow };

// Value: one runtime value; strings and versions point into the device or the program.
struct Value {
  ValueType type = ValueType::kNull;
  bool b = false;
  int64_t i = 0;
  std::string_view s;
  const api::SemVer* version = nullptr;
  __int128 quantity_nano = 0;
  int32_t list_node = -1;        // kList: the list literal's node
  EvalErrorCode error = EvalErrorCode::kNone;
  int32_t error_node = -1;       // kError: the node that failed
};

// Node: one compiled node (internal representation, exposed for the evaluator and tests).
enum class NodeKind : uint8_t {
  kLiteral, kList, kDriver, kAttribute, kCapacity, kHasAttribute, kHasCapacity,
  kDomainInAttributes, kDomainInCapacity, kNot, kNeg, kAnd, kOr, kTernary,
  kEq, kNe, kLt, kLe, kGt, kGe, kIn,
  kStartsWith, kEndsWith, kContains, kMatches, kSize, kIsSemver,
  kCompareTo, kIsGreaterThan, kIsLessThan, kAsInteger, kMajor, kMinor, kPatch,
};

struct Node {
  NodeKind kind = NodeKind::kLiteral;
  int32_t a = -1, b = -1, c = -1;   // operands (node indexes)
  std::vector<int32_t> items;       // kList elements
  Value literal;                    // kLiteral
  std::string domain, name;         // kAttribute / kCapacity / kHas*
  std::string text;                 // owned literal text (strings) / the call's name
  std::unique_ptr<api::SemVer> version;  // semver("…") literal
  std::unique_ptr<re2::RE2> regex;      // matches("…") pattern (RE2 syntax)
};

// Program: a compiled expression.
class Program {
 public:
  // Compile: parses and checks `expression`. O(length).
  [[nodiscard]] static tl::expected<Program, CompileError> Compile(std::string_view expression);

  // Evaluate: the expression on `device`: a kBool value, or kError (see ErrorText). No heap
  // allocation (see the note on `matches`). O(nodes).
  [[nodiscard]] Value Evaluate(const DeviceView& device) const;

  // Matches: Evaluate as a selector: true / false, or the runtime error text in *error
  // ("no such key: model"). Allocates only on error.
  [[nodiscard]] bool Matches(const DeviceView& device, std::string* error) const;

  // ErrorText: the message of a kError value produced by this program.
  [[nodiscard]] std::string ErrorText(const Value& v) const;

  [[nodiscard]] const std::string& source() const { return source_; }
  [[nodiscard]] const std::vector<Node>& nodes() const { return nodes_; }

  Program(Program&&) noexcept = default;
  Program& operator=(Program&&) noexcept = default;

 private:
  friend class Compiler;
  Program() = default;
  [[nodiscard]] Value Eval(int32_t node, const DeviceView& device) const;

  std::string source_;
  std::vector<Node> nodes_;
  int32_t root_ = -1;
};

}  // namespace wasched::dra::cel
