#include "json_value.h"

#include <cctype>
#include <cstdint>
#include <cstdlib>

namespace gpaprof::report::testing {
namespace {

class Parser {
public:
    Parser(std::string_view text, std::string* error) : text_(text), error_(error) {}

    std::optional<JsonValue> Document() {
        Space();
        std::optional<JsonValue> value = Value(0);
        if (!value) return std::nullopt;
        Space();
        if (at_ != text_.size()) return Fail("text after the value");
        return value;
    }

private:
    std::nullopt_t Fail(const std::string& message) {
        if (error_->empty()) *error_ = "offset " + std::to_string(at_) + ": " + message;
        return std::nullopt;
    }
    void Space() {
        while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) {
            ++at_;
        }
    }
    bool Literal(std::string_view word) {
        if (text_.substr(at_, word.size()) != word) return false;
        at_ += word.size();
        return true;
    }

    std::optional<JsonValue> Value(int depth) {
        if (depth > 200) return Fail("nested too deeply");
        if (at_ >= text_.size()) return Fail("value expected, found the end");
        JsonValue value;
        const char c = text_[at_];
        if (c == '{') return Object(depth);
        if (c == '[') return Array(depth);
        if (c == '"') {
            std::optional<std::string> s = String();
            if (!s) return std::nullopt;
            value.type = JsonValue::Type::String;
            value.string = *s;
            return value;
        }
        if (Literal("true")) { value.type = JsonValue::Type::Bool; value.boolean = true; return value; }
        if (Literal("false")) { value.type = JsonValue::Type::Bool; return value; }
        if (Literal("null")) return value;
        return Number();
    }

    std::optional<JsonValue> Number() {
        const size_t begin = at_;
        if (at_ < text_.size() && text_[at_] == '-') ++at_;
        if (at_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[at_]))) return Fail("invalid value");
        if (text_[at_] == '0') ++at_;
        else while (at_ < text_.size() && isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
        if (at_ < text_.size() && text_[at_] == '.') {
            ++at_;
            if (at_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[at_]))) return Fail("digit expected after '.'");
            while (at_ < text_.size() && isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
        }
        if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
            ++at_;
            if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
            if (at_ >= text_.size() || !isdigit(static_cast<unsigned char>(text_[at_]))) return Fail("exponent digits expected");
            while (at_ < text_.size() && isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
        }
        JsonValue value;
        value.type = JsonValue::Type::Number;
        value.numberText = std::string(text_.substr(begin, at_ - begin));
        value.number = std::strtod(value.numberText.c_str(), nullptr);
        return value;
    }

    static void AppendUtf8(uint32_t code, std::string* out) {
        if (code < 0x80) { *out += static_cast<char>(code); return; }
        if (code < 0x800) {
            *out += static_cast<char>(0xC0 | (code >> 6));
        } else if (code < 0x10000) {
            *out += static_cast<char>(0xE0 | (code >> 12));
            *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        } else {
            *out += static_cast<char>(0xF0 | (code >> 18));
            *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        }
        *out += static_cast<char>(0x80 | (code & 0x3F));
    }

    std::optional<uint32_t> Hex4() {
        if (at_ + 4 > text_.size()) return std::nullopt;
        uint32_t value = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = text_[at_++];
            value <<= 4;
            if (c >= '0' && c <= '9') value |= static_cast<uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f') value |= static_cast<uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') value |= static_cast<uint32_t>(c - 'A' + 10);
            else return std::nullopt;
        }
        return value;
    }

    std::optional<std::string> String() {
        ++at_;  // opening quote
        std::string out;
        while (true) {
            if (at_ >= text_.size()) return Fail("unterminated string");
            const unsigned char c = static_cast<unsigned char>(text_[at_]);
            if (c == '"') { ++at_; return out; }
            if (c < 0x20) return Fail("control character in a string");
            if (c == '\\') {
                ++at_;
                if (at_ >= text_.size()) return Fail("unterminated escape");
                const char e = text_[at_++];
                switch (e) {
                    case '"': out += '"'; break;
                    case '\\': out += '\\'; break;
                    case '/': out += '/'; break;
                    case 'b': out += '\b'; break;
                    case 'f': out += '\f'; break;
                    case 'n': out += '\n'; break;
                    case 'r': out += '\r'; break;
                    case 't': out += '\t'; break;
                    case 'u': {
                        std::optional<uint32_t> code = Hex4();
                        if (!code) return Fail("bad \\u escape");
                        if (*code >= 0xD800 && *code <= 0xDBFF) {
                            if (!Literal("\\u")) return Fail("lone high surrogate");
                            std::optional<uint32_t> low = Hex4();
                            if (!low || *low < 0xDC00 || *low > 0xDFFF) return Fail("bad low surrogate");
                            *code = 0x10000 + ((*code - 0xD800) << 10) + (*low - 0xDC00);
                        } else if (*code >= 0xDC00 && *code <= 0xDFFF) {
                            return Fail("lone low surrogate");
                        }
                        AppendUtf8(*code, &out);
                        break;
                    }
                    default: return Fail(std::string("bad escape \\") + e);
                }
                continue;
            }
            // A UTF-8 sequence, checked.
            size_t length = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
            if (!length || at_ + length > text_.size()) return Fail("invalid UTF-8");
            for (size_t k = 1; k < length; ++k) {
                if ((static_cast<unsigned char>(text_[at_ + k]) & 0xC0) != 0x80) return Fail("invalid UTF-8");
            }
            out.append(text_.substr(at_, length));
            at_ += length;
        }
    }

    std::optional<JsonValue> Array(int depth) {
        ++at_;
        JsonValue value;
        value.type = JsonValue::Type::Array;
        Space();
        if (at_ < text_.size() && text_[at_] == ']') { ++at_; return value; }
        while (true) {
            Space();
            std::optional<JsonValue> item = Value(depth + 1);
            if (!item) return std::nullopt;
            value.array.push_back(std::move(*item));
            Space();
            if (at_ < text_.size() && text_[at_] == ',') { ++at_; continue; }
            if (at_ < text_.size() && text_[at_] == ']') { ++at_; return value; }
            return Fail("',' or ']' expected");
        }
    }

    std::optional<JsonValue> Object(int depth) {
        ++at_;
        JsonValue value;
        value.type = JsonValue::Type::Object;
        Space();
        if (at_ < text_.size() && text_[at_] == '}') { ++at_; return value; }
        while (true) {
            Space();
            if (at_ >= text_.size() || text_[at_] != '"') return Fail("key expected");
            std::optional<std::string> key = String();
            if (!key) return std::nullopt;
            Space();
            if (at_ >= text_.size() || text_[at_] != ':') return Fail("':' expected");
            ++at_;
            Space();
            std::optional<JsonValue> item = Value(depth + 1);
            if (!item) return std::nullopt;
            value.object.push_back({*key, std::move(*item)});
            Space();
            if (at_ < text_.size() && text_[at_] == ',') { ++at_; continue; }
            if (at_ < text_.size() && text_[at_] == '}') { ++at_; return value; }
            return Fail("',' or '}' expected");
        }
    }

    std::string_view text_;
    std::string* error_;
    size_t at_ = 0;
};

}  // namespace

std::optional<JsonValue> ParseJson(std::string_view text, std::string* error) {
    error->clear();
    return Parser(text, error).Document();
}

}  // namespace gpaprof::report::testing
