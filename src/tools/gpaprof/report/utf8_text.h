// Text from a trace can hold any bytes (strings the application passed, truncated mid-character).
// Pages and JSON need valid UTF-8: these helpers make it so and escape text for HTML.
#pragma once

#include <string>
#include <string_view>

namespace gpaprof::report {

// `text` with each byte that does not start or continue a valid UTF-8 sequence replaced by U+FFFD.
std::string ValidUtf8(std::string_view text);

// Valid UTF-8 with & < > " ' written as character references: safe in element text and quoted attributes.
std::string HtmlEscape(std::string_view text);

}  // namespace gpaprof::report
