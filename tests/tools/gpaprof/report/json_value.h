// A strict, small JSON parser for the tests (RFC 8259: no trailing commas, no comments, escapes and UTF-8
// checked), so that the tests can check both that the exports are valid JSON and what they contain.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpaprof::report::testing {

struct JsonMember;

struct JsonValue {
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0.0;
    std::string numberText;  // the number as written
    std::string string;
    std::vector<JsonValue> array;
    // In file order. A vector of a struct declared below, not of std::pair<std::string, JsonValue>: a pair of a
    // type still incomplete here is undefined, and Clang refuses it.
    std::vector<JsonMember> object;

    const JsonValue* Find(std::string_view key) const;
};

struct JsonMember {
    std::string name;
    JsonValue value;
};

inline const JsonValue* JsonValue::Find(std::string_view key) const {
    for (const auto& [name, value] : object) {
        if (name == key) return &value;
    }
    return nullptr;
}

// nullopt with `error` ("offset N: ...") when `text` is not exactly one JSON value (whitespace around allowed).
std::optional<JsonValue> ParseJson(std::string_view text, std::string* error);

}  // namespace gpaprof::report::testing
