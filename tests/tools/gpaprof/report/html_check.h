// A strict well-formedness check of the HTML the report writes (the subset it uses): every element closed
// in order, attribute values quoted, '&' only in character references, no '<' in text, <script> and
// <style> contents never containing their end tag, valid UTF-8.
#pragma once

#include <string>
#include <string_view>

namespace gpaprof::report::testing {

// Empty when well-formed; otherwise the first problem with its offset.
std::string HtmlProblem(std::string_view html);

// The text between the start tag that contains `startTagText` and the next "</script>".
std::string ScriptContent(std::string_view html, std::string_view startTagText);

}  // namespace gpaprof::report::testing
