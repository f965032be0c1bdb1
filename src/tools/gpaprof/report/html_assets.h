// The style sheet and the script that the HTML report carries inline (the report is one file that needs
// no network and no other file). The script reads the JSON in <script id="gpaprof-data">, draws the
// charts as SVG, makes the tables sortable, and records in #gpaprof-status whether it ran
// (data-state="ready") or failed (data-state="error", with the message).
#pragma once

namespace gpaprof::report {

extern const char* const kReportStyle;
extern const char* const kReportScript;

}  // namespace gpaprof::report
