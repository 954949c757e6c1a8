// File: codec/yaml_dom.cc
//
// YamlDom storage, its builder, and the yaml-cpp event handler that fills it.
#include "codec/yaml_dom.h"

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "codec/input_limits.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {
namespace {

// IsNullLike: a node that resolves to null (a null node or a plain `~` / `null` / "").
bool IsNullLike(const YamlDom& d, YamlNodeId id) {
  const YamlType t = d.type(id);
  if (t == YamlType::kNull) return true;
  return t == YamlType::kScalar && d.style(id) == ScalarStyle::kPlain &&
         ClassifyPlainScalar(d.scalar(id)) == ValueKind::kNull;
}

bool EqualNodes(const YamlDom& a, YamlNodeId x, const YamlDom& b, YamlNodeId y) {
  const bool x_null = IsNullLike(a, x);
  const bool y_null = IsNullLike(b, y);
  if (x_null || y_null) return x_null && y_null;
  if (a.type(x) != b.type(y)) return false;
  if (a.type(x) == YamlType::kScalar) {
    return a.style(x) == b.style(y) && a.scalar(x) == b.scalar(y);
  }
  const auto xs = a.children(x);
  const auto ys = b.children(y);
  if (xs.size() != ys.size()) return false;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (!EqualNodes(a, xs[i], b, ys[i])) return false;
  }
  return true;
}

void AppendDebug(const YamlDom& d, YamlNodeId id, std::string* out) {
  switch (d.type(id)) {
    case YamlType::kNull:
      out->append("null");
      return;
    case YamlType::kScalar:
      out->append(d.style(id) == ScalarStyle::kPlain ? "" : "!");
      out->append(QuoteValue(d.scalar(id)));
      return;
    case YamlType::kMap: {
      out->push_back('{');
      const auto c = d.children(id);
      for (size_t i = 0; i < c.size(); i += 2) {
        if (i > 0) out->append(", ");
        AppendDebug(d, c[i], out);
        out->append(": ");
        AppendDebug(d, c[i + 1], out);
      }
      out->push_back('}');
      return;
    }
    case YamlType::kSeq: {
      out->push_back('[');
      const auto c = d.children(id);
      for (size_t i = 0; i < c.size(); ++i) {
        if (i > 0) out->append(", ");
        AppendDebug(d, c[i], out);
      }
      out->push_back(']');
      return;
    }
  }
}

// DomEventHandler: yaml-cpp events → YamlDom, one document per HandleNextDocument call.
class DomEventHandler : public YAML::EventHandler {
 public:
  explicit DomEventHandler(std::string_view text)
      : text_(text), merge_budget_(ExpansionBudget(text.size())) {}

  // OnDocumentStart: `mark` is where the document's first token starts. yaml-cpp 0.7 starts a
  // document without consuming anything when the next token cannot begin a node (a stray `,` as
  // in `,` or `{"a": 1},`): it reports a null document and HandleNextDocument returns true again
  // at the same token, forever. Every real document consumes at least one token, so a document
  // that starts where the previous one started is that loop: stop it with a parse error.
  void OnDocumentStart(const YAML::Mark& mark) override {
    if (previous_start_ && mark.pos == previous_start_->pos && mark.line == previous_start_->line &&
        mark.column == previous_start_->column) {
      std::string what = "unexpected character";
      if (mark.pos >= 0 && static_cast<size_t>(mark.pos) < text_.size()) {
        what += " " + QuoteValue(text_.substr(static_cast<size_t>(mark.pos), 1));
      }
      throw YAML::ParserException(mark, what + " (no YAML node can start here)");
    }
    previous_start_ = mark;
  }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark&, YAML::anchor_t anchor) override {
    Add(builder_.AddNull(), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) {
      throw YAML::ParserException(mark, "alias to an unknown or enclosing anchor");
    }
    Add(it->second, YAML::NullAnchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    if (value.size() > kMaxScalarBytes) {
      throw YAML::ParserException(
          mark, fmt::format("a value of {} bytes is longer than the limit of {} bytes", value.size(),
                            kMaxScalarBytes));
    }
    // "?" = plain, "!" = quoted or block; an explicit !!str forces a string; other explicit
    // tags resolve by content, as the codec has always done.
    const ScalarStyle style = (tag == "!" || tag == "tag:yaml.org,2002:str")
                                  ? ScalarStyle::kString
                                  : ScalarStyle::kPlain;
    Add(builder_.AddOwnedScalar(value, style), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    CheckDepth(mark);
    frames_.push_back(Frame{YamlType::kSeq, stack_.size(), anchor, mark});
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    CheckDepth(mark);
    frames_.push_back(Frame{YamlType::kMap, stack_.size(), anchor, mark});
  }
  void OnMapEnd() override { Close(); }

  // TakeDocument: the document completed by the last HandleNextDocument.
  YamlDom TakeDocument() {
    YamlDom dom = builder_.Finish(root_);
    root_ = kNoYamlNode;
    anchors_.clear();
    return dom;
  }

 private:
  struct Frame {
    YamlType type;
    size_t stack_start;
    YAML::anchor_t anchor;
    YAML::Mark mark;  // where the map or list starts (merge-key errors point there)
  };

  // CheckDepth: one more map or list may open (kMaxNestingDepth), else a parse error at `mark`.
  void CheckDepth(const YAML::Mark& mark) const {
    if (static_cast<int>(frames_.size()) >= kMaxNestingDepth) {
      throw YAML::ParserException(
          mark, fmt::format("maps and lists nested deeper than {} levels", kMaxNestingDepth));
    }
  }

  void Add(YamlNodeId id, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = id;
    if (frames_.empty()) {
      root_ = id;
    } else {
      stack_.push_back(id);
    }
  }

  void Close() {
    const Frame frame = frames_.back();
    frames_.pop_back();
    if (frame.type == YamlType::kMap) ExpandMergeKeys(frame.stack_start, frame.mark);
    const YamlNodeId id = builder_.AddCollection(
        frame.type, std::span<const YamlNodeId>(stack_).subspan(frame.stack_start));
    stack_.resize(frame.stack_start);
    Add(id, frame.anchor);
  }

  // ExpandMergeKeys: YAML 1.1 merge keys (`<<: *base` or `<<: [*a, *b]`), which Kubernetes'
  // YAML decoder (sigs.k8s.io/yaml → go-yaml) expands and yaml-cpp does not: the pairs of the
  // merged maps whose keys the map does not set itself are appended (earlier sources win), and
  // the `<<` pair is removed. Entries are node ids, so nothing is deep-copied. Errors point at
  // `mark`, where the map starts.
  void ExpandMergeKeys(size_t start, const YAML::Mark& mark) {
    const YamlDom& d = builder_.partial();
    auto is_merge_key = [&](YamlNodeId k) {
      return d.type(k) == YamlType::kScalar && d.style(k) == ScalarStyle::kPlain &&
             d.scalar(k) == "<<";
    };
    bool any = false;
    for (size_t i = start; i + 1 < stack_.size(); i += 2) any = any || is_merge_key(stack_[i]);
    if (!any) return;
    std::vector<YamlNodeId> own;
    std::vector<YamlNodeId> sources;
    for (size_t i = start; i + 1 < stack_.size(); i += 2) {
      if (!is_merge_key(stack_[i])) {
        own.push_back(stack_[i]);
        own.push_back(stack_[i + 1]);
        continue;
      }
      const YamlNodeId v = stack_[i + 1];
      if (d.type(v) == YamlType::kMap) {
        sources.push_back(v);
      } else if (d.type(v) == YamlType::kSeq) {
        for (YamlNodeId item : d.children(v)) {
          if (d.type(item) != YamlType::kMap) {
            throw YAML::ParserException(mark,
                                        "merge key \"<<\" needs a map or a list of maps");
          }
          sources.push_back(item);
        }
      } else {
        throw YAML::ParserException(mark,
                                    "merge key \"<<\" needs a map or a list of maps");
      }
    }
    // Scalar keys already in the map, hashed: O(entries) per map, not O(entries²).
    std::unordered_set<std::string_view> keys;
    auto add_key = [&](YamlNodeId key) {
      return d.type(key) != YamlType::kScalar || keys.insert(d.scalar(key)).second;
    };
    std::vector<YamlNodeId> merged;
    for (size_t j = 0; j + 1 < own.size(); j += 2) {
      add_key(own[j]);
      merged.push_back(own[j]);
      merged.push_back(own[j + 1]);
    }
    for (YamlNodeId src : sources) {
      const auto kv = d.children(src);
      // Every merged entry is a copy of a reference: bounded like decoders' alias visits, so
      // maps merging maps that merge maps cannot grow the document quadratically.
      merge_budget_ -= static_cast<int64_t>(kv.size() / 2);
      if (merge_budget_ < 0) {
        throw YAML::ParserException(mark,
                                    "merge keys (\"<<\") expand to too many entries");
      }
      for (size_t j = 0; j + 1 < kv.size(); j += 2) {
        if (!add_key(kv[j])) continue;
        merged.push_back(kv[j]);
        merged.push_back(kv[j + 1]);
      }
    }
    stack_.resize(start);
    stack_.insert(stack_.end(), merged.begin(), merged.end());
  }

  YamlDomBuilder builder_;
  std::vector<Frame> frames_;
  std::vector<YamlNodeId> stack_;
  std::unordered_map<YAML::anchor_t, YamlNodeId> anchors_;
  YamlNodeId root_ = kNoYamlNode;
  std::string_view text_;
  std::optional<YAML::Mark> previous_start_;
  int64_t merge_budget_;  // map entries merge keys may still add (ExpansionBudget)
};

}  // namespace

size_t YamlDom::size(YamlNodeId id) const {
  if (id == kNoYamlNode) return 0;
  const Node& n = nodes_[id];
  return n.type == YamlType::kMap ? n.count / 2 : n.count;
}

std::span<const YamlNodeId> YamlDom::children(YamlNodeId id) const {
  if (id == kNoYamlNode) return {};
  const Node& n = nodes_[id];
  return std::span<const YamlNodeId>(children_).subspan(n.first, n.count);
}

bool YamlDom::Equal(const YamlDom& a, const YamlDom& b) {
  return EqualNodes(a, a.root(), b, b.root());
}

std::string YamlDom::DebugString() const {
  std::string out;
  AppendDebug(*this, root_, &out);
  return out;
}

YamlNodeId YamlDomBuilder::AddNull() {
  dom_.nodes_.push_back(YamlDom::Node{});
  return static_cast<YamlNodeId>(dom_.nodes_.size() - 1);
}

YamlNodeId YamlDomBuilder::AddScalar(std::string_view text, ScalarStyle style) {
  dom_.nodes_.push_back(YamlDom::Node{YamlType::kScalar, style, 0, 0, text});
  return static_cast<YamlNodeId>(dom_.nodes_.size() - 1);
}

YamlNodeId YamlDomBuilder::AddOwnedScalar(std::string text, ScalarStyle style) {
  dom_.owned_.push_back(std::move(text));
  return AddScalar(dom_.owned_.back(), style);
}

YamlNodeId YamlDomBuilder::AddCollection(YamlType type, std::span<const YamlNodeId> children) {
  const auto first = static_cast<uint32_t>(dom_.children_.size());
  dom_.children_.insert(dom_.children_.end(), children.begin(), children.end());
  dom_.nodes_.push_back(
      YamlDom::Node{type, ScalarStyle::kPlain, first, static_cast<uint32_t>(children.size()), {}});
  return static_cast<YamlNodeId>(dom_.nodes_.size() - 1);
}

YamlDom YamlDomBuilder::Finish(YamlNodeId root) {
  dom_.root_ = root;
  YamlDom out = std::move(dom_);
  dom_ = YamlDom();
  return out;
}

std::vector<YamlDom> ParseWithYamlCpp(std::string_view text) {
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  DomEventHandler handler(text);
  std::vector<YamlDom> docs;
  // A document takes at least one byte (`---` or a node), so more documents than bytes means the
  // parser is not advancing (a backstop for the check in OnDocumentStart).
  const size_t max_documents = text.size() + 1;
  while (parser.HandleNextDocument(handler)) {
    docs.push_back(handler.TakeDocument());
    if (docs.size() > max_documents) {
      throw YAML::ParserException(YAML::Mark::null_mark(), "the YAML parser stopped advancing");
    }
  }
  return docs;
}

}  // namespace wasched::codec::internal
