// The data of the page's charts (bars, the timeline), as JSON for the page's inline script; html_report.cpp
// writes it into the page.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tools/gpaprof/report/html_report.h"
#include "tools/gpaprof/report/json_writer.h"

namespace gpaprof::report::html_charts {

void BarChartData(JsonWriter* json, const std::string& id, const char* unit,
                  const std::vector<std::pair<std::string, double>>& bars);
void TimelineData(JsonWriter* json, const Report& report, const HtmlOptions& options, std::string* note);

}  // namespace gpaprof::report::html_charts
