// Expressions that define derived counters over hardware counter values.
//
// Grammar (infix, whitespace ignored):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '/') unary)*
//   unary   := '-' unary | primary
//   primary := number | identifier | function '(' expr (',' expr)* ')' | '(' expr ')'
//   function: sum, min, max, avg (any number of arguments), ifnotzero(test, then, else)
//   identifier: [A-Za-z_][A-Za-z0-9_.]*  (hardware counter names such as dram__bytes_read.sum)
// Division by zero yields 0, as GPA's derived counters always did.
// An expression compiles once to a postfix program that evaluation runs over a value array.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpa {

class Expression {
public:
    // Maps an identifier to the index of its value in the array given to Evaluate, or nullopt if unknown.
    using Resolver = std::function<std::optional<uint32_t>(std::string_view identifier)>;

    // Compiles text; on failure returns nullopt and describes the problem (with its position) in *error.
    static std::optional<Expression> Compile(std::string_view text, const Resolver& resolve, std::string* error);

    // The identifiers an expression text names, in order of first appearance (no compilation needed).
    static std::vector<std::string> Identifiers(std::string_view text);

    double Evaluate(std::span<const double> values) const;

    // Value indices the expression reads, without duplicates.
    const std::vector<uint32_t>& Inputs() const { return inputs_; }

private:
    enum class Op : uint8_t { Constant, Input, Add, Subtract, Multiply, Divide, Negate, Sum, Min, Max, Average, IfNotZero };
    struct Instruction {
        Op op;
        uint32_t operand = 0;  // input index, or argument count for Sum/Min/Max/Average
        double constant = 0.0;
    };
    friend class ExpressionParser;

    std::vector<Instruction> program_;
    std::vector<uint32_t> inputs_;
    uint32_t maxStack_ = 0;
};

}  // namespace gpa
