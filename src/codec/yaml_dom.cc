// File: codec/yaml_dom.cc
//
// YamlDom storage, its builder, and the yaml-cpp event handler that fills it.
#include "codec/yaml_dom.h"

#include <sstream>
#include <unordered_map>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

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
  void OnDocumentStart(const YAML::Mark&) override {}
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

  void OnScalar(const YAML::Mark&, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    // "?" = plain, "!" = quoted or block; an explicit !!str forces a string; other explicit
    // tags resolve by content, as the codec has always done.
    const ScalarStyle style = (tag == "!" || tag == "tag:yaml.org,2002:str")
                                  ? ScalarStyle::kString
                                  : ScalarStyle::kPlain;
    Add(builder_.AddOwnedScalar(value, style), anchor);
  }

  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    frames_.push_back(Frame{YamlType::kSeq, stack_.size(), anchor});
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    frames_.push_back(Frame{YamlType::kMap, stack_.size(), anchor});
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
  };

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
    const YamlNodeId id = builder_.AddCollection(
        frame.type, std::span<const YamlNodeId>(stack_).subspan(frame.stack_start));
    stack_.resize(frame.stack_start);
    Add(id, frame.anchor);
  }

  YamlDomBuilder builder_;
  std::vector<Frame> frames_;
  std::vector<YamlNodeId> stack_;
  std::unordered_map<YAML::anchor_t, YamlNodeId> anchors_;
  YamlNodeId root_ = kNoYamlNode;
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
  DomEventHandler handler;
  std::vector<YamlDom> docs;
  while (parser.HandleNextDocument(handler)) docs.push_back(handler.TakeDocument());
  return docs;
}

}  // namespace wasched::codec::internal
