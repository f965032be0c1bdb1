#include "pm_sampling/metric_names.h"

namespace gpa::pm_sampling {

std::string BaseMetricOf(std::string_view name) {
    for (size_t begin = 0; begin <= name.size();) {
        const size_t dot = name.find('.', begin);
        const size_t end = dot == std::string_view::npos ? name.size() : dot;
        if (name.substr(begin, end - begin).find("__") != std::string_view::npos) return std::string(name.substr(0, end));
        if (dot == std::string_view::npos) break;
        begin = dot + 1;
    }
    return std::string(name.substr(0, name.find('.')));
}

}  // namespace gpa::pm_sampling
