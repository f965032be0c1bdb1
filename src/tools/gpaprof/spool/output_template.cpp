#include "tools/gpaprof/spool/output_template.h"

namespace gpaprof {
namespace {

bool ValidName(const std::string& name) {
    if (name.empty()) return false;
    for (char c : name) {
        const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        if (!ok) return false;
    }
    return true;
}

// Walks the pattern; `emit` receives literal text, `pid` is called for %p, `variable` for %q{NAME}.
bool Walk(const std::string& pattern, std::string* error, const std::function<void(const std::string&)>& literal,
          const std::function<void()>& pid, const std::function<void(const std::string&)>& variable) {
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') {
            literal(std::string(1, pattern[i]));
            continue;
        }
        if (i + 1 >= pattern.size()) {
            *error = "'%' at the end of the output name (write %% for a percent sign)";
            return false;
        }
        const char what = pattern[++i];
        if (what == '%') {
            literal("%");
        } else if (what == 'p') {
            pid();
        } else if (what == 'q') {
            const size_t close = pattern.find('}', i);
            if (i + 1 >= pattern.size() || pattern[i + 1] != '{' || close == std::string::npos) {
                *error = "%q must be followed by {NAME}, e.g. %q{RANK}";
                return false;
            }
            const std::string name = pattern.substr(i + 2, close - i - 2);
            if (!ValidName(name)) {
                *error = "%q{" + name + "}: not an environment variable name";
                return false;
            }
            variable(name);
            i = close;
        } else {
            *error = std::string("unknown placeholder %") + what + " in the output name (known: %p, %q{NAME}, %%)";
            return false;
        }
    }
    return true;
}

}  // namespace

bool ValidateOutputTemplate(const std::string& pattern, std::string* error) {
    return Walk(pattern, error, [](const std::string&) {}, [] {}, [](const std::string&) {});
}

std::string ResolveOutputTemplate(const std::string& pattern, long pid, const EnvironmentLookup& lookup,
                                  std::string* warning) {
    std::string resolved;
    std::string error;
    const bool ok = Walk(
        pattern, &error, [&](const std::string& text) { resolved += text; }, [&] { resolved += std::to_string(pid); },
        [&](const std::string& name) {
            std::optional<std::string> value = lookup(name);
            if (value) {
                resolved += *value;
            } else {
                resolved += "unset-" + name;
                if (warning) *warning = "environment variable " + name + " of %q{" + name + "} is not set";
            }
        });
    if (!ok) {
        if (warning) *warning = error;
        return pattern;
    }
    return resolved;
}

std::string StripProfilerExtension(const std::string& path) {
    for (const char* extension : {".pmsampling.csv", ".csv", ".atp", ".occupancy"}) {  // the longest first
        const std::string suffix(extension);
        if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return path.substr(0, path.size() - suffix.size());
        }
    }
    return path;
}

}  // namespace gpaprof
