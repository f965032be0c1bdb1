// What the .atp writer (atp_file_writer.cpp) and reader (atp_file_reader.cpp) both spell.
#pragma once

namespace gpaprof::atp {

constexpr const char* kBeginMarker = "clBeginPerfMarker";
constexpr const char* kEndMarker = "clEndPerfMarker";
constexpr const char* kEndMarkerEx = "clEndPerfMarkerEx";

}  // namespace gpaprof::atp
