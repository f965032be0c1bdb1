// A small streaming JSON writer: the Perfetto export and the data the HTML report's scripts draw from.
// Strings are written as valid JSON whatever bytes they hold: invalid UTF-8 becomes U+FFFD, control
// characters are escaped. In script-safe mode '<', '>', '&', U+2028 and U+2029 are escaped as well, so
// that the text can sit inside an HTML <script> element without ending it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpaprof::report {

// The JSON string literal (with its quotes) of `text`.
std::string JsonString(std::string_view text, bool scriptSafe = false);

class JsonWriter {
public:
    explicit JsonWriter(bool scriptSafe = false) : scriptSafe_(scriptSafe) {}

    JsonWriter& BeginObject();
    JsonWriter& EndObject();
    JsonWriter& BeginArray();
    JsonWriter& EndArray();
    // The key of the next value, inside an object.
    JsonWriter& Key(std::string_view key);
    JsonWriter& String(std::string_view value);
    JsonWriter& Unsigned(uint64_t value);
    JsonWriter& Signed(int64_t value);
    // Finite values as numbers; NaN and infinities as null (JSON has no notation for them).
    JsonWriter& Number(double value, int digits = 6);
    // Nanoseconds as microseconds with three decimals, exactly ("1234567" -> 1234.567).
    JsonWriter& MicrosecondsFromNs(uint64_t nanoseconds);
    JsonWriter& Bool(bool value);
    JsonWriter& Null();

    const std::string& text() const { return text_; }
    std::string Take() { return std::move(text_); }
    // The text written so far, leaving the writer empty but inside the same objects and arrays: a large
    // document can go to a file piece by piece.
    std::string TakePiece() {
        std::string piece;
        piece.swap(text_);
        return piece;
    }

private:
    void BeforeValue();

    std::string text_;
    std::vector<bool> firstInScope_;
    bool afterKey_ = false;
    bool scriptSafe_ = false;
};

}  // namespace gpaprof::report
