#include "html_check.h"

#include <cctype>
#include <vector>

#include "tools/gpaprof/report/utf8_text.h"

namespace gpaprof::report::testing {
namespace {

bool IsVoid(const std::string& name) {
    for (const char* tag : {"meta", "br", "img", "input", "link", "hr", "col", "wbr"}) {
        if (name == tag) return true;
    }
    return false;
}

std::string Lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A character reference at `at` ('&'): &name; or &#digits; or &#xhex;.
bool ValidReference(std::string_view html, size_t at) {
    const size_t semicolon = html.find(';', at);
    if (semicolon == std::string_view::npos || semicolon - at > 10 || semicolon == at + 1) return false;
    std::string_view body = html.substr(at + 1, semicolon - at - 1);
    if (body[0] == '#') {
        if (body.size() < 2) return false;
        for (size_t i = 1; i < body.size(); ++i) {
            if (!std::isdigit(static_cast<unsigned char>(body[i]))) return false;
        }
        return true;
    }
    for (char c : body) {
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

}  // namespace

std::string HtmlProblem(std::string_view html) {
    if (ValidUtf8(html) != html) return "not valid UTF-8";
    std::vector<std::string> open;
    size_t i = 0;
    auto problem = [&](const std::string& message) { return "offset " + std::to_string(i) + ": " + message; };
    while (i < html.size()) {
        const char c = html[i];
        if (c == '&') {
            if (!ValidReference(html, i)) return problem("'&' that starts no character reference");
            ++i;
            continue;
        }
        if (c == '>') return problem("'>' in text");
        if (c != '<') {
            ++i;
            continue;
        }
        if (html.substr(i, 9) == "<!DOCTYPE") {
            i = html.find('>', i);
            if (i == std::string_view::npos) return "unterminated DOCTYPE";
            ++i;
            continue;
        }
        if (html.substr(i, 4) == "<!--") {
            const size_t end = html.find("-->", i);
            if (end == std::string_view::npos) return problem("unterminated comment");
            i = end + 3;
            continue;
        }
        const bool closing = i + 1 < html.size() && html[i + 1] == '/';
        size_t at = i + (closing ? 2 : 1);
        const size_t nameStart = at;
        while (at < html.size() && (std::isalnum(static_cast<unsigned char>(html[at])) || html[at] == '-')) ++at;
        if (at == nameStart) return problem("'<' that starts no tag");
        const std::string name = Lower(html.substr(nameStart, at - nameStart));
        // Attributes: name="value" or bare names.
        while (at < html.size() && html[at] != '>' && !(html[at] == '/' && at + 1 < html.size() && html[at + 1] == '>')) {
            if (html[at] == ' ' || html[at] == '\n') {
                ++at;
                continue;
            }
            const size_t attributeStart = at;
            while (at < html.size() && (std::isalnum(static_cast<unsigned char>(html[at])) || html[at] == '-')) ++at;
            if (at == attributeStart) return problem("bad attribute in <" + name + ">");
            if (at < html.size() && html[at] == '=') {
                ++at;
                if (at >= html.size() || html[at] != '"') return problem("unquoted attribute value in <" + name + ">");
                const size_t close = html.find('"', at + 1);
                if (close == std::string_view::npos) return problem("unterminated attribute value");
                const std::string_view value = html.substr(at + 1, close - at - 1);
                if (value.find('<') != std::string_view::npos) return problem("'<' in an attribute value");
                for (size_t k = 0; k < value.size(); ++k) {
                    if (value[k] == '&' && !ValidReference(value, k)) return problem("bare '&' in an attribute value");
                }
                at = close + 1;
            }
        }
        if (at >= html.size()) return problem("unterminated tag <" + name + ">");
        const bool selfClosing = html[at] == '/';
        i = at + (selfClosing ? 2 : 1);
        if (closing) {
            if (open.empty() || open.back() != name) {
                return problem("</" + name + "> closes <" + (open.empty() ? std::string("nothing") : open.back()) + ">");
            }
            open.pop_back();
            continue;
        }
        if (selfClosing || IsVoid(name)) continue;
        if (name == "script" || name == "style") {
            const std::string end = "</" + name + ">";
            const size_t close = html.find(end, i);
            if (close == std::string_view::npos) return problem("unterminated <" + name + ">");
            const std::string content = Lower(html.substr(i, close - i));
            if (content.find("</" + name) != std::string::npos || content.find("<!--") != std::string::npos) {
                return problem("<" + name + "> content that would end it early");
            }
            i = close + end.size();
            continue;
        }
        open.push_back(name);
    }
    if (!open.empty()) return "unclosed <" + open.back() + "> at the end";
    return {};
}

std::string ScriptContent(std::string_view html, std::string_view startTagText) {
    const size_t tag = html.find(startTagText);
    if (tag == std::string_view::npos) return {};
    const size_t begin = html.find('>', tag) + 1;
    const size_t end = html.find("</script>", begin);
    if (end == std::string_view::npos) return {};
    return std::string(html.substr(begin, end - begin));
}

}  // namespace gpaprof::report::testing
