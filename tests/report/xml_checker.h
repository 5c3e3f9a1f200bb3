#pragma once
// A small XML 1.0 well-formedness checker for the JUnit tests: balanced elements, quoted
// attributes without duplicates, known entities and character references only, no characters
// XML forbids, no `<` or `&` loose in text or attributes. It also collects elements so tests can
// look at the structure. Enough for what junit_report writes; not a general parser (no DTDs, CDATA
// or comments).
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace funcspec::conformance::testing_support {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;  // decoded
  std::string text;                               // decoded character data directly inside
  std::vector<XmlElement> children;
};

class XmlChecker {
 public:
  // The document's root element, or nullopt with error() saying what is wrong.
  std::optional<XmlElement> parse(std::string_view document) {
    text_ = document;
    pos_ = 0;
    error_.clear();
    if (text_.starts_with("<?xml")) {
      const std::size_t end = text_.find("?>");
      if (end == std::string_view::npos) {
        fail("unterminated XML declaration");
        return std::nullopt;
      }
      pos_ = end + 2;
    }
    skip_blanks();
    XmlElement root;
    if (!element(root)) return std::nullopt;
    skip_blanks();
    if (pos_ != text_.size()) {
      fail("content after the root element");
      return std::nullopt;
    }
    return root;
  }
  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& message) {
    if (error_.empty()) error_ = message + " at offset " + std::to_string(pos_);
    return false;
  }
  void skip_blanks() {
    while (pos_ < text_.size() && std::string_view(" \t\r\n").find(text_[pos_]) != std::string_view::npos) ++pos_;
  }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == ':';
  }
  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && name_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }
  // Decodes character data up to `stop`, checking entities and forbidden characters.
  bool characters(char stop, std::string& out) {
    while (pos_ < text_.size() && text_[pos_] != stop) {
      const char c = text_[pos_];
      const auto byte = static_cast<unsigned char>(c);
      if (c == '<') return fail("'<' in character data");
      if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') return fail("a control character");
      if (text_.substr(pos_).starts_with("\xEF\xBF\xBE") || text_.substr(pos_).starts_with("\xEF\xBF\xBF")) {
        return fail("U+FFFE or U+FFFF");
      }
      if (c != '&') {
        out += c;
        ++pos_;
        continue;
      }
      const std::size_t semicolon = text_.find(';', pos_);
      if (semicolon == std::string_view::npos) return fail("unterminated entity");
      const std::string_view entity = text_.substr(pos_ + 1, semicolon - pos_ - 1);
      static const std::map<std::string_view, char> kEntities = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      if (const auto found = kEntities.find(entity); found != kEntities.end()) {
        out += found->second;
      } else if (entity == "#9" || entity == "#10" || entity == "#13") {
        out += static_cast<char>(std::stoi(std::string(entity.substr(1))));
      } else {
        return fail("unknown entity &" + std::string(entity) + ";");
      }
      pos_ = semicolon + 1;
    }
    return pos_ < text_.size() || stop == '<';
  }
  bool element(XmlElement& out) {
    if (pos_ >= text_.size() || text_[pos_] != '<') return fail("expected '<'");
    ++pos_;
    out.name = name();
    if (out.name.empty()) return fail("empty element name");
    for (;;) {
      skip_blanks();
      if (pos_ >= text_.size()) return fail("unterminated start tag");
      if (text_.substr(pos_).starts_with("/>")) {
        pos_ += 2;
        return true;
      }
      if (text_[pos_] == '>') {
        ++pos_;
        break;
      }
      const std::string attribute = name();
      if (attribute.empty()) return fail("bad attribute name");
      if (pos_ + 1 >= text_.size() || text_[pos_] != '=' || text_[pos_ + 1] != '"') {
        return fail("attribute " + attribute + " is not =\"...\"");
      }
      pos_ += 2;
      std::string value;
      if (!characters('"', value)) return fail("unterminated attribute " + attribute);
      ++pos_;
      if (!out.attributes.emplace(attribute, value).second) return fail("duplicate attribute");
    }
    for (;;) {
      if (!characters('<', out.text)) return false;
      if (pos_ >= text_.size()) return fail("unclosed element " + out.name);
      if (text_.substr(pos_).starts_with("</")) {
        pos_ += 2;
        if (name() != out.name) return fail("mismatched end tag for " + out.name);
        if (pos_ >= text_.size() || text_[pos_] != '>') return fail("bad end tag");
        ++pos_;
        return true;
      }
      XmlElement child;
      if (!element(child)) return false;
      out.children.push_back(std::move(child));
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::string error_;
};

// Every descendant element named `name`, depth first.
inline void collect(const XmlElement& element, std::string_view name, std::vector<const XmlElement*>& out) {
  if (element.name == name) out.push_back(&element);
  for (const XmlElement& child : element.children) collect(child, name, out);
}

}  // namespace funcspec::conformance::testing_support
