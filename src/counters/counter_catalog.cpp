#include "counters/counter_catalog.h"

#include <algorithm>
#include <cctype>

namespace gpa {

std::string ToLower(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return lower;
}

CounterCatalog CounterCatalog::Build(const std::vector<HardwareCounter>& hardware,
                                     const std::vector<DerivedCounterDefinition>& derived, Options options) {
    CounterCatalog catalog;
    catalog.options_ = options;
    std::unordered_map<std::string, uint32_t> hardwareByName;
    for (uint32_t i = 0; i < hardware.size(); ++i) hardwareByName.emplace(hardware[i].name, i);

    if (options.exposeDerived) {
        for (const DerivedCounterDefinition& definition : derived) {
            std::string error;
            std::optional<Expression> expression = Expression::Compile(
                definition.expression,
                [&](std::string_view identifier) -> std::optional<uint32_t> {
                    auto it = hardwareByName.find(std::string(identifier));
                    if (it == hardwareByName.end()) return std::nullopt;
                    return it->second;
                },
                &error);
            if (!expression) {
                // Tell a device that lacks an input apart from a definition that is itself broken.
                std::string missing;
                for (const std::string& identifier : Expression::Identifiers(definition.expression)) {
                    if (hardwareByName.count(identifier) == 0) missing += (missing.empty() ? "" : ", ") + identifier;
                }
                catalog.omitted_.push_back(
                    {definition.name, missing.empty() ? "its definition is invalid: " + error
                                                      : "not measurable on this device, which lacks " + missing});
                continue;
            }
            ExposedCounter counter;
            counter.name = definition.name;
            counter.group = definition.group;
            counter.description = definition.description;
            counter.type = definition.type;
            counter.usage = definition.usage;
            counter.hardware = expression->Inputs();
            counter.definition = definition.expression;
            counter.expression = std::move(expression);
            catalog.Add(std::move(counter));
        }
    }
    if (options.exposeHardware) {
        for (uint32_t i = 0; i < hardware.size(); ++i) {
            if (catalog.Find(hardware[i].name)) continue;  // a derived counter already uses this name
            catalog.AddHardware(hardware[i], i);
        }
    }
    return catalog;
}

std::optional<uint32_t> CounterCatalog::AddHardware(const HardwareCounter& raw, uint32_t hardwareIndex) {
    if (Find(raw.name)) return std::nullopt;
    ExposedCounter counter;
    counter.name = raw.name;
    counter.group = raw.group;
    counter.description = raw.description;
    counter.type = raw.type;
    counter.usage = raw.usage;
    counter.hardware = {hardwareIndex};
    counter.definition = raw.name;
    Add(std::move(counter));
    return static_cast<uint32_t>(counters_.size() - 1);
}

void CounterCatalog::Add(ExposedCounter counter) {
    const std::string key = ToLower(counter.name);
    if (byLowerName_.count(key) != 0) {
        omitted_.push_back({counter.name, "duplicate counter name (names are case-insensitive)"});
        return;
    }
    byLowerName_.emplace(key, static_cast<uint32_t>(counters_.size()));
    counters_.push_back(std::make_shared<const ExposedCounter>(std::move(counter)));
}

std::optional<uint32_t> CounterCatalog::Find(std::string_view name) const {
    auto it = byLowerName_.find(ToLower(name));
    if (it == byLowerName_.end()) return std::nullopt;
    return it->second;
}

double CounterCatalog::Evaluate(uint32_t index, std::span<const double> hardwareValues) const {
    const ExposedCounter& counter = at(index);
    if (counter.expression) return counter.expression->Evaluate(hardwareValues);
    const uint32_t hw = counter.hardware.front();
    return hw < hardwareValues.size() ? hardwareValues[hw] : 0.0;
}

}  // namespace gpa
