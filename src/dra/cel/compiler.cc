// File: dra/cel/compiler.cc
//
// Program::Compile: a recursive-descent parser for CEL's grammar (cel-spec langdef.md) that
// resolves the `device` variable's paths and the supported functions while it parses, so the
// program holds only nodes the evaluator knows (see program.h for the subset).
#include <fmt/format.h>

#include "dra/cel/lexer.h"
#include "dra/cel/program.h"

namespace wasched::dra::cel {

// StaticType: what the compiler knows of a node's type (kDyn: attributes, decided at runtime).
enum class StaticType : uint8_t { kDyn, kBool, kInt, kString, kVersion, kQuantity, kList, kNull };

namespace {

const char* StaticTypeName(StaticType t) {
  switch (t) {
    case StaticType::kDyn: return "dyn";
    case StaticType::kBool: return "bool";
    case StaticType::kInt: return "int";
    case StaticType::kString: return "string";
    case StaticType::kVersion: return "Semver";
    case StaticType::kQuantity: return "Quantity";
    case StaticType::kList: return "list";
    case StaticType::kNull: return "null_type";
  }
  return "dyn";
}

bool IsKnownMethod(std::string_view name) {
  for (std::string_view m : {"startsWith", "endsWith", "contains", "matches", "size", "compareTo",
                             "isGreaterThan", "isLessThan", "asInteger", "major", "minor",
                             "patch"}) {
    if (m == name) return true;
  }
  return false;
}

bool IsKnownGlobal(std::string_view name) {
  for (std::string_view m : {"has", "quantity", "semver", "isSemver", "size", "matches"}) {
    if (m == name) return true;
  }
  return false;
}

// IsCelFunction: a function or method the Kubernetes CEL environment of DRA selectors declares
// (cel-go's standard library and macros, and the Kubernetes libraries: strings, lists, regex,
// URLs, quantities, semver, IP/CIDR, sets, optional, base64, math; k8s.io/apiserver
// pkg/cel/library and pkg/cel/environment). A call to any other name is a compile error upstream
// ("undeclared reference"), not a construct wasched merely does not model.
bool IsCelFunction(std::string_view name) {
  for (std::string_view f :
       {// standard library and macros
        "has", "all", "exists", "exists_one", "map", "filter", "size", "contains", "startsWith",
        "endsWith", "matches", "int", "uint", "double", "string", "bytes", "bool", "type", "dyn",
        "duration", "timestamp", "getFullYear", "getMonth", "getDate", "getDayOfMonth",
        "getDayOfWeek", "getDayOfYear", "getHours", "getMinutes", "getSeconds",
        "getMilliseconds",
        // strings
        "charAt", "indexOf", "lastIndexOf", "lowerAscii", "upperAscii", "replace", "split",
        "substring", "trim", "join", "format", "quote", "reverse", "strings",
        // lists
        "isSorted", "sum", "min", "max", "slice", "flatten", "sort", "sortBy", "distinct",
        "range", "first", "last", "lists",
        // regex, URLs
        "find", "findAll", "url", "isURL", "getScheme", "getHost", "getHostname", "getPort",
        "getEscapedPath", "getQuery",
        // quantities, semver
        "quantity", "isQuantity", "sign", "isGreaterThan", "isLessThan", "compareTo", "add",
        "sub", "asInteger", "isInteger", "asApproximateFloat", "semver", "isSemver", "major",
        "minor", "patch",
        // IP / CIDR
        "ip", "isIP", "cidr", "isCIDR", "family", "isUnspecified", "isLoopback",
        "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast", "containsIP",
        "containsCIDR", "masked", "prefixLength", "ip.isCanonical",
        // sets, optional, base64, math
        "sets", "equivalent", "intersects", "optional", "of", "ofNonZeroValue", "none",
        "hasValue", "value", "or", "orValue", "optMap", "optFlatMap", "base64", "encode",
        "decode", "math", "greatest", "least", "ceil", "floor", "round", "trunc", "abs",
        "isInf", "isNaN", "isFinite", "bitAnd", "bitOr", "bitXor", "bitNot", "bitShiftLeft",
        "bitShiftRight"}) {
    if (f == name) return true;
  }
  return false;
}

// Pseudo: parse results that are not values: the `device` variable and its maps.
enum class Pseudo : uint8_t { kNone, kDevice, kAttrMap, kCapMap, kAttrDomain, kCapDomain };

struct Item {
  Pseudo pseudo = Pseudo::kNone;
  int32_t node = -1;
  std::string domain;
  StaticType type = StaticType::kDyn;
};

struct Failure {
  CompileError error;
};

}  // namespace

class Compiler {
 public:
  Compiler(std::string_view source, std::vector<Token> tokens)
      : source_(source), tokens_(std::move(tokens)) {}

  tl::expected<Program, CompileError> Run() {
    Item root = ParseExpr();
    if (failed_) return tl::unexpected(error_);
    if (Peek().kind != TokenKind::kEnd) {
      SyntaxError(fmt::format("mismatched input '{}' expecting <EOF>", Peek().text));
      return tl::unexpected(error_);
    }
    const int32_t node = Value(root, "the expression");
    if (failed_) return tl::unexpected(error_);
    const StaticType t = types_[static_cast<size_t>(node)];
    if (t != StaticType::kBool && t != StaticType::kDyn) {
      return tl::unexpected(CompileError{
          false, fmt::format("must evaluate to bool or the unknown type, not {}",
                             StaticTypeName(t))});
    }
    program_.source_ = std::string(source_);
    program_.root_ = node;
    return std::move(program_);
  }

 private:
  // ---- errors -----------------------------------------------------------------------------
  void SyntaxError(const std::string& message) {
    if (failed_) return;
    failed_ = true;
    error_ = CompileError{false, fmt::format("compilation failed: Syntax error at column {}: {}",
                                             Peek().column, message)};
  }
  void Unsupported(const std::string& what) {
    if (failed_) return;
    failed_ = true;
    error_ = CompileError{true, what + " is not supported by wasched"};
  }
  void TypeError(const std::string& message) {
    if (failed_) return;
    failed_ = true;
    error_ = CompileError{false, "compilation failed: " + message};
  }

  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Advance() {
    const Token& t = tokens_[pos_];
    if (t.kind != TokenKind::kEnd) ++pos_;
    return t;
  }
  bool Accept(TokenKind k) {
    if (Peek().kind != k) return false;
    Advance();
    return true;
  }
  void Expect(TokenKind k) {
    if (!Accept(k)) {
      SyntaxError(fmt::format("expected {}, got {}", TokenKindText(k),
                              Peek().kind == TokenKind::kEnd ? std::string("end of input")
                                                             : "'" + std::string(Peek().text) + "'"));
    }
  }

  // ---- nodes --------------------------------------------------------------------------------
  int32_t Add(Node node, StaticType type) {
    program_.nodes_.push_back(std::move(node));
    types_.push_back(type);
    return static_cast<int32_t>(program_.nodes_.size() - 1);
  }
  int32_t AddOp(NodeKind kind, StaticType type, int32_t a, int32_t b = -1, int32_t c = -1) {
    Node n;
    n.kind = kind;
    n.a = a;
    n.b = b;
    n.c = c;
    return Add(std::move(n), type);
  }
  StaticType TypeOf(int32_t node) const {
    return node < 0 ? StaticType::kDyn : types_[static_cast<size_t>(node)];
  }
  // StringLiteral: the text when `node` is a string literal.
  const std::string* StringLiteral(int32_t node) const {
    if (node < 0) return nullptr;
    const Node& n = program_.nodes_[static_cast<size_t>(node)];
    if (n.kind != NodeKind::kLiteral || n.literal.type != ValueType::kString) return nullptr;
    return &n.text;
  }

  // Value: the value node of `item`; pseudo items are not values.
  int32_t Value(const Item& item, const char* where) {
    if (failed_) return -1;
    switch (item.pseudo) {
      case Pseudo::kNone: return item.node;
      case Pseudo::kDevice:
        Unsupported("using \"device\" as a value (use device.driver, device.attributes[...] or "
                    "device.capacity[...])");
        return -1;
      case Pseudo::kAttrMap:
      case Pseudo::kCapMap:
        Unsupported(fmt::format("using device.{} as a value (use it with an index, or with "
                                "\"in\")",
                                item.pseudo == Pseudo::kAttrMap ? "attributes" : "capacity"));
        return -1;
      case Pseudo::kAttrDomain:
      case Pseudo::kCapDomain:
        Unsupported(fmt::format("using device.{}[\"{}\"] as a value (select an attribute of the "
                                "domain)",
                                item.pseudo == Pseudo::kAttrDomain ? "attributes" : "capacity",
                                item.domain));
        return -1;
    }
    return -1;
  }

  Item Of(int32_t node) {
    Item i;
    i.node = node;
    i.type = TypeOf(node);
    return i;
  }

  bool Enter() {
    if (++depth_ > kMaxDepth) {
      if (!failed_) {
        failed_ = true;
        error_ = CompileError{
            false, fmt::format("compilation failed: max recursion depth exceeded: the expression "
                               "nests deeper than {} levels (counted: parentheses, conditionals, "
                               "comparisons, unary operators, indexes; a flat chain of && or || "
                               "is one level, as in cel-go)",
                               kMaxDepth)};
      }
      return false;
    }
    return true;
  }

  // ---- grammar ------------------------------------------------------------------------------
  // Expr = ConditionalOr ["?" ConditionalOr ":" Expr]
  Item ParseExpr() {
    if (!Enter()) return {};
    Item cond = ParseOr();
    if (!failed_ && Accept(TokenKind::kQuestion)) {
      const int32_t c = Value(cond, "?:");
      Item yes = ParseOr();
      Expect(TokenKind::kColon);
      Item no = ParseExpr();
      const int32_t y = Value(yes, "?:");
      const int32_t n = Value(no, "?:");
      if (failed_) return {};
      CheckBool(c, "_?_:_");
      const StaticType t = TypeOf(y) == TypeOf(n) ? TypeOf(y) : StaticType::kDyn;
      --depth_;
      return Of(AddOp(NodeKind::kTernary, t, c, y, n));
    }
    --depth_;
    return cond;
  }

  void CheckBool(int32_t node, const char* op) {
    const StaticType t = TypeOf(node);
    if (!failed_ && t != StaticType::kBool && t != StaticType::kDyn) {
      TypeError(fmt::format("found no matching overload for '{}' applied to '{}'", op,
                            StaticTypeName(t)));
    }
  }

  // ParseOr / ParseAnd: a flat chain `a || b || c` is one level, as in cel-go (its grammar
  // reads the chain in a loop and parser/helper.go's logicManager balances the terms into a tree
  // of depth log2(n)); the terms go into a balanced tree here too, so evaluation recursion stays
  // logarithmic. `&&` / `||` are commutative over errors, so the tree's shape changes no result.
  Item ParseOr() { return ParseChain(TokenKind::kOrOr, NodeKind::kOr, "||", "_||_"); }
  Item ParseAnd() { return ParseChain(TokenKind::kAndAnd, NodeKind::kAnd, "&&", "_&&_"); }

  Item ParseChain(TokenKind token, NodeKind kind, const char* op, const char* overload) {
    Item first = token == TokenKind::kOrOr ? ParseAnd() : ParseRelation();
    if (failed_ || Peek().kind != token) return first;
    std::vector<int32_t> terms{Value(first, op)};
    while (!failed_ && Accept(token)) {
      terms.push_back(Value(token == TokenKind::kOrOr ? ParseAnd() : ParseRelation(), op));
    }
    if (failed_) return {};
    for (int32_t t : terms) CheckBool(t, overload);
    if (failed_) return {};
    return Of(Balanced(kind, terms, 0, terms.size() - 1));
  }

  // Balanced: terms[lo..hi] joined by `kind` as a balanced binary tree (left to right order).
  int32_t Balanced(NodeKind kind, const std::vector<int32_t>& terms, size_t lo, size_t hi) {
    if (lo == hi) return terms[lo];
    const size_t mid = lo + (hi - lo) / 2;
    const int32_t l = Balanced(kind, terms, lo, mid);
    const int32_t r = Balanced(kind, terms, mid + 1, hi);
    return AddOp(kind, StaticType::kBool, l, r);
  }

  Item ParseRelation() {
    const int depth = depth_;
    Item left = ParseAddition();
    while (!failed_) {
      const TokenKind k = Peek().kind;
      NodeKind op;
      const char* name = "";
      if (k == TokenKind::kEqEq) { op = NodeKind::kEq; name = "_==_"; }
      else if (k == TokenKind::kNotEq) { op = NodeKind::kNe; name = "_!=_"; }
      else if (k == TokenKind::kLess) { op = NodeKind::kLt; name = "_<_"; }
      else if (k == TokenKind::kLessEq) { op = NodeKind::kLe; name = "_<=_"; }
      else if (k == TokenKind::kGreater) { op = NodeKind::kGt; name = "_>_"; }
      else if (k == TokenKind::kGreaterEq) { op = NodeKind::kGe; name = "_>=_"; }
      else if (k == TokenKind::kIdent && Peek().value == "in") { op = NodeKind::kIn; name = "@in"; }
      else break;
      Advance();
      if (!Enter()) return {};
      Item right = ParseAddition();
      if (failed_) return {};
      if (op == NodeKind::kIn) {
        left = ParseIn(left, right);
      } else {
        const int32_t l = Value(left, name);
        const int32_t r = Value(right, name);
        if (failed_) return {};
        const StaticType lt = TypeOf(l);
        const StaticType rt = TypeOf(r);
        const bool ordering = op != NodeKind::kEq && op != NodeKind::kNe;
        const auto orderable = [](StaticType t) {
          return t == StaticType::kDyn || t == StaticType::kInt || t == StaticType::kString ||
                 t == StaticType::kBool;
        };
        const bool distinct = lt != rt && lt != StaticType::kDyn && rt != StaticType::kDyn;
        // Equality is cel-go's `(A, A) -> bool`: two different static types do not unify
        // (`device.driver == 1` is a compile error upstream). null is left to the evaluator.
        const bool distinct_equality = !ordering && distinct && lt != StaticType::kNull &&
                                       rt != StaticType::kNull;
        if (distinct_equality || (ordering && (!orderable(lt) || !orderable(rt) || distinct))) {
          TypeError(fmt::format("found no matching overload for '{}' applied to '({}, {})'",
                                name, StaticTypeName(lt), StaticTypeName(rt)));
          return {};
        }
        left = Of(AddOp(op, StaticType::kBool, l, r));
      }
    }
    depth_ = depth;
    return left;
  }

  Item ParseIn(const Item& left, const Item& right) {
    if (right.pseudo == Pseudo::kAttrMap || right.pseudo == Pseudo::kCapMap) {
      const int32_t l = Value(left, "in");
      if (failed_) return {};
      const StaticType lt = TypeOf(l);
      if (lt != StaticType::kString && lt != StaticType::kDyn) {
        TypeError(fmt::format("found no matching overload for '@in' applied to '({}, map)'",
                              StaticTypeName(lt)));
        return {};
      }
      return Of(AddOp(right.pseudo == Pseudo::kAttrMap ? NodeKind::kDomainInAttributes
                                                       : NodeKind::kDomainInCapacity,
                      StaticType::kBool, l));
    }
    const int32_t l = Value(left, "in");
    const int32_t r = Value(right, "in");
    if (failed_) return {};
    if (TypeOf(r) != StaticType::kList) {
      Unsupported("\"in\" with a right-hand side other than a list literal, device.attributes "
                  "or device.capacity");
      return {};
    }
    return Of(AddOp(NodeKind::kIn, StaticType::kBool, l, r));
  }

  Item ParseAddition() {
    Item left = ParseUnary();
    while (!failed_) {
      const TokenKind k = Peek().kind;
      if (k != TokenKind::kPlus && k != TokenKind::kMinus && k != TokenKind::kStar &&
          k != TokenKind::kSlash && k != TokenKind::kPercent) {
        break;
      }
      // Type-checked first, as cel-go does (`device.driver + 1` is "found no matching overload
      // for '_+_' applied to '(string, int)'"); a well-typed expression is then not supported.
      const std::string text(Advance().text);
      const char* name = k == TokenKind::kPlus    ? "_+_"
                         : k == TokenKind::kMinus ? "_-_"
                         : k == TokenKind::kStar  ? "_*_"
                         : k == TokenKind::kSlash ? "_/_"
                                                  : "_%_";
      const int32_t l = Value(left, name);
      const int32_t r = Value(ParseUnary(), name);
      if (failed_) return {};
      const StaticType lt = TypeOf(l);
      const StaticType rt = TypeOf(r);
      const auto operand = [&](StaticType t) {
        return t == StaticType::kDyn || t == StaticType::kInt ||
               (k == TokenKind::kPlus && (t == StaticType::kString || t == StaticType::kList));
      };
      if (!operand(lt) || !operand(rt) ||
          (lt != rt && lt != StaticType::kDyn && rt != StaticType::kDyn)) {
        TypeError(fmt::format("found no matching overload for '{}' applied to '({}, {})'", name,
                              StaticTypeName(lt), StaticTypeName(rt)));
        return {};
      }
      Unsupported(fmt::format("arithmetic operator '{}'", text));
      return {};
    }
    return left;
  }

  Item ParseUnary() {
    // Only an operator nests (cel-go's unnest skips single-child rules).
    if (Peek().kind != TokenKind::kBang && Peek().kind != TokenKind::kMinus) return ParseMember();
    if (!Enter()) return {};
    Item out;
    if (Accept(TokenKind::kBang)) {
      const int32_t v = Value(ParseUnary(), "!");
      CheckBool(v, "!_");
      if (failed_) return {};
      out = Of(AddOp(NodeKind::kNot, StaticType::kBool, v));
    } else if (Accept(TokenKind::kMinus)) {
      const int32_t v = Value(ParseUnary(), "-");
      if (failed_) return {};
      const StaticType t = TypeOf(v);
      if (t != StaticType::kInt && t != StaticType::kDyn) {
        TypeError(fmt::format("found no matching overload for '-_' applied to '{}'",
                              StaticTypeName(t)));
        return {};
      }
      out = Of(AddOp(NodeKind::kNeg, StaticType::kInt, v));
    } else {
      out = ParseMember();
    }
    --depth_;
    return out;
  }

  Item ParseMember() {
    Item item = ParsePrimary();
    while (!failed_) {
      if (Accept(TokenKind::kDot)) {
        if (Peek().kind != TokenKind::kIdent) {
          SyntaxError("expected a field or method name after '.'");
          return {};
        }
        const std::string name = Advance().value;
        if (Peek().kind == TokenKind::kLParen) {
          if (!IsKnownMethod(name)) {
            if (!IsCelFunction(name)) {
              TypeError(fmt::format("undeclared reference to '{}'", name));
            } else {
              Unsupported(fmt::format("function \"{}\"", name));
            }
            return {};
          }
          Advance();
          std::vector<int32_t> args = ParseArgs();
          if (failed_) return {};
          const int32_t target = Value(item, "method call");
          if (failed_) return {};
          item = Of(Method(target, name, args));
        } else {
          item = Select(item, name);
        }
      } else if (Accept(TokenKind::kLBracket)) {
        if (!Enter()) return {};
        const int32_t key = Value(ParseExpr(), "index");
        Expect(TokenKind::kRBracket);
        --depth_;
        if (failed_) return {};
        item = IndexInto(item, key);
      } else {
        break;
      }
    }
    return item;
  }

  std::vector<int32_t> ParseArgs() {  // after '('
    std::vector<int32_t> args;
    if (Accept(TokenKind::kRParen)) return args;
    while (!failed_) {
      args.push_back(Value(ParseExpr(), "argument"));
      if (Accept(TokenKind::kComma)) continue;
      Expect(TokenKind::kRParen);
      break;
    }
    return args;
  }

  Item Select(const Item& target, const std::string& field) {
    switch (target.pseudo) {
      case Pseudo::kDevice:
        if (field == "driver") {
          Node n;
          n.kind = NodeKind::kDriver;
          return Of(Add(std::move(n), StaticType::kString));
        }
        if (field == "attributes" || field == "capacity") {
          Item i;
          i.pseudo = field == "attributes" ? Pseudo::kAttrMap : Pseudo::kCapMap;
          return i;
        }
        Unsupported(fmt::format("field \"device.{}\"", field));
        return {};
      case Pseudo::kAttrDomain:
      case Pseudo::kCapDomain:
        return Of(Lookup(target, field));
      case Pseudo::kAttrMap:
      case Pseudo::kCapMap:
        Unsupported(fmt::format("field selection \".{}\" on device.{} (index it with a domain "
                                "string: device.{}[\"<domain>\"].<name>)",
                                field, target.pseudo == Pseudo::kAttrMap ? "attributes" : "capacity",
                                target.pseudo == Pseudo::kAttrMap ? "attributes" : "capacity"));
        return {};
      case Pseudo::kNone:
        Unsupported(fmt::format("field selection \".{}\"", field));
        return {};
    }
    return {};
  }

  int32_t Lookup(const Item& domain_item, const std::string& name) {
    Node n;
    n.kind = domain_item.pseudo == Pseudo::kAttrDomain ? NodeKind::kAttribute : NodeKind::kCapacity;
    n.domain = domain_item.domain;
    n.name = name;
    return Add(std::move(n), n.kind == NodeKind::kCapacity ? StaticType::kQuantity
                                                          : StaticType::kDyn);
  }

  Item IndexInto(const Item& target, int32_t key) {
    const std::string* text = StringLiteral(key);
    if (target.pseudo == Pseudo::kAttrMap || target.pseudo == Pseudo::kCapMap) {
      if (!text) {
        Unsupported("indexing device.attributes / device.capacity with anything but a string "
                    "literal");
        return {};
      }
      Item i;
      i.pseudo = target.pseudo == Pseudo::kAttrMap ? Pseudo::kAttrDomain : Pseudo::kCapDomain;
      i.domain = *text;
      return i;
    }
    if (target.pseudo == Pseudo::kAttrDomain || target.pseudo == Pseudo::kCapDomain) {
      if (!text) {
        Unsupported("indexing an attribute domain with anything but a string literal");
        return {};
      }
      return Of(Lookup(target, *text));
    }
    if (target.pseudo == Pseudo::kDevice) {
      Unsupported("indexing \"device\"");
      return {};
    }
    Unsupported("the index operator [] on values");
    return {};
  }

  // ParsePrimary: not a nesting level itself; every way back into it passes ParseExpr (counted)
  // or a unary operator (counted), so `((x))` is two levels, as cel-go counts nested Exprs.
  Item ParsePrimary() {
    Item out;
    const Token& t = Peek();
    switch (t.kind) {
      case TokenKind::kInt: {
        Node n;
        n.literal.type = ValueType::kInt;
        n.literal.i = t.int_value;
        Advance();
        out = Of(Add(std::move(n), StaticType::kInt));
        break;
      }
      case TokenKind::kString: {
        Node n;
        n.text = t.value;
        n.literal.type = ValueType::kString;
        Advance();
        out = Of(Add(std::move(n), StaticType::kString));
        break;
      }
      case TokenKind::kUint:
        Unsupported(fmt::format("uint literal {}", t.text));
        return {};
      case TokenKind::kDouble:
        Unsupported(fmt::format("double literal {}", t.text));
        return {};
      case TokenKind::kBytes:
        Unsupported(fmt::format("bytes literal {}", t.text));
        return {};
      case TokenKind::kLParen: {
        Advance();
        out = ParseExpr();
        Expect(TokenKind::kRParen);
        break;
      }
      case TokenKind::kLBracket: {
        Advance();
        Node n;
        n.kind = NodeKind::kList;
        if (!Accept(TokenKind::kRBracket)) {
          while (!failed_) {
            n.items.push_back(Value(ParseExpr(), "list element"));
            if (Accept(TokenKind::kComma)) {
              if (Accept(TokenKind::kRBracket)) break;  // trailing comma
              continue;
            }
            Expect(TokenKind::kRBracket);
            break;
          }
        }
        if (failed_) return {};
        out = Of(Add(std::move(n), StaticType::kList));
        break;
      }
      case TokenKind::kLBrace:
        Unsupported("map literal {...}");
        return {};
      case TokenKind::kDot:
        Unsupported("a leading '.' (qualified identifier)");
        return {};
      case TokenKind::kIdent: {
        const std::string name = t.value;
        Advance();
        if (Accept(TokenKind::kLParen)) {
          if (!IsKnownGlobal(name)) {
            if (!IsCelFunction(name)) {
              TypeError(fmt::format("undeclared reference to '{}'", name));
            } else {
              Unsupported(fmt::format("function \"{}\"", name));
            }
            return {};
          }
          out = Global(name);
          break;
        }
        if (name == "true" || name == "false") {
          Node n;
          n.literal.type = ValueType::kBool;
          n.literal.b = name == "true";
          out = Of(Add(std::move(n), StaticType::kBool));
        } else if (name == "null") {
          Node n;
          n.literal.type = ValueType::kNull;
          out = Of(Add(std::move(n), StaticType::kNull));
        } else if (name == "device") {
          out.pseudo = Pseudo::kDevice;
        } else if (name == "in") {
          SyntaxError("unexpected 'in'");
          return {};
        } else {
          TypeError(fmt::format("undeclared reference to '{}'", name));
          return {};
        }
        break;
      }
      case TokenKind::kEnd:
        SyntaxError("unexpected end of input");
        return {};
      default:
        SyntaxError(fmt::format("unexpected '{}'", t.text));
        return {};
    }
    return out;
  }

  // Global: a call `name(args)` without a target (after '(').
  Item Global(const std::string& name) {
    if (name == "has") {
      // has(device.attributes["d"].name): a macro over a field selection.
      if (!Enter()) return {};
      Item arg = ParseExpr();
      Expect(TokenKind::kRParen);
      --depth_;
      if (failed_) return {};
      if (arg.pseudo == Pseudo::kNone && arg.node >= 0) {
        Node& n = program_.nodes_[static_cast<size_t>(arg.node)];
        if (n.kind == NodeKind::kAttribute || n.kind == NodeKind::kCapacity) {
          n.kind = n.kind == NodeKind::kAttribute ? NodeKind::kHasAttribute : NodeKind::kHasCapacity;
          types_[static_cast<size_t>(arg.node)] = StaticType::kBool;
          return arg;
        }
      }
      Unsupported("has() of anything but device.attributes[\"<domain>\"].<name> or "
                  "device.capacity[\"<domain>\"].<name>");
      return {};
    }
    std::vector<int32_t> args = ParseArgs();
    if (failed_) return {};
    if (name == "quantity" || name == "semver") {
      const std::string* text = args.size() == 1 ? StringLiteral(args[0]) : nullptr;
      if (!text) {
        Unsupported(fmt::format("{}() with an argument other than one string literal", name));
        return {};
      }
      Node& n = program_.nodes_[static_cast<size_t>(args[0])];
      if (name == "quantity") {
        auto q = api::Quantity::Parse(*text);
        if (!q) {
          TypeError(fmt::format("quantity(\"{}\"): {}", *text, q.error()));
          return {};
        }
        n.literal.type = ValueType::kQuantity;
        n.literal.quantity_nano = q->Nano();
        types_[static_cast<size_t>(args[0])] = StaticType::kQuantity;
      } else {
        auto v = api::ParseSemVer(*text);
        if (!v) {
          TypeError(fmt::format("semver(\"{}\"): invalid semantic version", *text));
          return {};
        }
        n.version = std::make_unique<api::SemVer>(std::move(*v));
        n.literal.type = ValueType::kVersion;
        n.literal.version = n.version.get();
        types_[static_cast<size_t>(args[0])] = StaticType::kVersion;
      }
      return Of(args[0]);
    }
    if (name == "isSemver") {
      if (args.size() != 1) return Arity(name);
      return Of(AddOp(NodeKind::kIsSemver, StaticType::kBool, args[0]));
    }
    if (name == "size") {
      if (args.size() != 1) return Arity(name);
      return Of(AddOp(NodeKind::kSize, StaticType::kInt, args[0]));
    }
    if (name == "matches" && args.size() == 2) return Of(Method(args[0], name, {args[1]}));
    Unsupported(fmt::format("function \"{}\"", name));
    return {};
  }

  Item Arity(const std::string& name) {
    TypeError(fmt::format("found no matching overload for '{}' with this number of arguments",
                          name));
    return {};
  }

  // Method: `target.name(args)`.
  int32_t Method(int32_t target, const std::string& name, const std::vector<int32_t>& args) {
    const StaticType tt = TypeOf(target);
    const auto want = [&](std::initializer_list<StaticType> ok, size_t arity) -> bool {
      bool type_ok = tt == StaticType::kDyn;
      for (StaticType t : ok) type_ok = type_ok || t == tt;
      if (!type_ok) {
        TypeError(fmt::format("found no matching overload for '{}' applied to '{}'", name,
                              StaticTypeName(tt)));
        return false;
      }
      if (args.size() != arity) {
        TypeError(fmt::format("found no matching overload for '{}' with {} argument(s)", name,
                              args.size()));
        return false;
      }
      return true;
    };
    NodeKind kind;
    StaticType result = StaticType::kBool;
    if (name == "startsWith" || name == "endsWith" || name == "contains") {
      if (!want({StaticType::kString}, 1)) return -1;
      kind = name == "startsWith" ? NodeKind::kStartsWith
             : name == "endsWith" ? NodeKind::kEndsWith : NodeKind::kContains;
    } else if (name == "matches") {
      if (!want({StaticType::kString}, 1)) return -1;
      const std::string* pattern = StringLiteral(args[0]);
      if (!pattern) {
        Unsupported("matches() with a pattern other than a string literal");
        return -1;
      }
      Node n;
      n.kind = NodeKind::kMatches;
      n.a = target;
      n.text = *pattern;
      // RE2, as cel-go's `matches` (Go regexp: RE2 syntax, linear time). Errors are not logged
      // to stderr; the message is the compile error.
      re2::RE2::Options options;
      options.set_log_errors(false);
      n.regex = std::make_unique<re2::RE2>(*pattern, options);
      if (!n.regex->ok()) {
        TypeError(fmt::format("invalid regular expression \"{}\": {}", *pattern,
                              n.regex->error()));
        return -1;
      }
      return Add(std::move(n), StaticType::kBool);
    } else if (name == "size") {
      if (!want({StaticType::kString, StaticType::kList}, 0)) return -1;
      return AddOp(NodeKind::kSize, StaticType::kInt, target);
    } else if (name == "compareTo" || name == "isGreaterThan" || name == "isLessThan") {
      if (!want({StaticType::kQuantity, StaticType::kVersion}, 1)) return -1;
      kind = name == "compareTo" ? NodeKind::kCompareTo
             : name == "isGreaterThan" ? NodeKind::kIsGreaterThan : NodeKind::kIsLessThan;
      if (name == "compareTo") result = StaticType::kInt;
    } else if (name == "asInteger") {
      if (!want({StaticType::kQuantity}, 0)) return -1;
      return AddOp(NodeKind::kAsInteger, StaticType::kInt, target);
    } else if (name == "major" || name == "minor" || name == "patch") {
      if (!want({StaticType::kVersion}, 0)) return -1;
      return AddOp(name == "major" ? NodeKind::kMajor
                   : name == "minor" ? NodeKind::kMinor : NodeKind::kPatch,
                   StaticType::kInt, target);
    } else {
      Unsupported(fmt::format("function \"{}\"", name));
      return -1;
    }
    const int32_t node = AddOp(kind, result, target, args[0]);
    program_.nodes_[static_cast<size_t>(node)].text = name;
    return node;
  }

  std::string_view source_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  bool failed_ = false;
  CompileError error_;
  Program program_;
  std::vector<StaticType> types_;
};

tl::expected<Program, CompileError> Program::Compile(std::string_view expression) {
  if (expression.size() > kMaxLength) {
    return tl::unexpected(CompileError{
        false, fmt::format("may not be more than {} bytes", kMaxLength)});
  }
  LexResult lexed = Lex(expression);
  if (!lexed.error.empty()) {
    return tl::unexpected(CompileError{
        false, fmt::format("compilation failed: {} (column {})", lexed.error,
                           lexed.error_column)});
  }
  return Compiler(expression, std::move(lexed.tokens)).Run();
}

}  // namespace wasched::dra::cel
