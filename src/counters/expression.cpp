#include "counters/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace gpa {

namespace {

bool IsIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

}  // namespace

// Recursive-descent parser emitting the postfix program.
class ExpressionParser {
public:
    ExpressionParser(std::string_view text, const Expression::Resolver& resolve, Expression& out)
        : text_(text), resolve_(resolve), out_(out) {}

    bool Parse(std::string* error) {
        if (!ParseExpr()) {
            *error = error_;
            return false;
        }
        SkipSpace();
        if (pos_ != text_.size()) {
            *error = At("unexpected '" + std::string(1, text_[pos_]) + "'");
            return false;
        }
        return true;
    }

private:
    using Op = Expression::Op;

    void SkipSpace() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    }
    bool Peek(char c) {
        SkipSpace();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    std::string At(const std::string& what) const {
        return what + " at position " + std::to_string(pos_) + " in \"" + std::string(text_) + "\"";
    }
    bool Failure(const std::string& what) {
        if (error_.empty()) error_ = At(what);
        return false;
    }
    void Emit(Op op, uint32_t operand = 0, double constant = 0.0, int stackEffect = 0) {
        out_.program_.push_back({op, operand, constant});
        depth_ += stackEffect;
        out_.maxStack_ = std::max<uint32_t>(out_.maxStack_, static_cast<uint32_t>(std::max(depth_, 0)));
    }

    bool ParseExpr() {
        if (!ParseTerm()) return false;
        while (Peek('+') || Peek('-')) {
            const char c = text_[pos_++];
            if (!ParseTerm()) return false;
            Emit(c == '+' ? Op::Add : Op::Subtract, 0, 0.0, -1);
        }
        return true;
    }
    bool ParseTerm() {
        if (!ParseUnary()) return false;
        while (Peek('*') || Peek('/')) {
            const char c = text_[pos_++];
            if (!ParseUnary()) return false;
            Emit(c == '*' ? Op::Multiply : Op::Divide, 0, 0.0, -1);
        }
        return true;
    }
    bool ParseUnary() {
        if (Peek('-')) {
            ++pos_;
            if (!ParseUnary()) return false;
            Emit(Op::Negate);
            return true;
        }
        return ParsePrimary();
    }
    bool ParsePrimary() {
        SkipSpace();
        if (pos_ >= text_.size()) return Failure("expression ends too early");
        const char c = text_[pos_];
        if (c == '(') {
            ++pos_;
            if (!ParseExpr()) return false;
            if (!Peek(')')) return Failure("missing ')'");
            ++pos_;
            return true;
        }
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return ParseNumber();
        if (IsIdentifierStart(c)) return ParseIdentifierOrCall();
        return Failure("unexpected '" + std::string(1, c) + "'");
    }
    bool ParseNumber() {
        const char* begin = text_.data() + pos_;
        char* end = nullptr;
        // strtod accepts exponents ("1e6"); the text is not null-terminated, so copy the candidate span.
        size_t len = 0;
        while (pos_ + len < text_.size() &&
               (std::isalnum(static_cast<unsigned char>(begin[len])) || begin[len] == '.' ||
                ((begin[len] == '+' || begin[len] == '-') && len > 0 && (begin[len - 1] == 'e' || begin[len - 1] == 'E')))) {
            ++len;
        }
        const std::string candidate(begin, len);
        const double value = std::strtod(candidate.c_str(), &end);
        if (end != candidate.c_str() + candidate.size()) return Failure("malformed number '" + candidate + "'");
        pos_ += len;
        Emit(Op::Constant, 0, value, +1);
        return true;
    }
    bool ParseIdentifierOrCall() {
        const size_t start = pos_;
        while (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) ++pos_;
        const std::string_view name = text_.substr(start, pos_ - start);
        if (Peek('(')) return ParseCall(name);
        const std::optional<uint32_t> index = resolve_(name);
        if (!index) {
            pos_ = start;
            return Failure("unknown counter '" + std::string(name) + "'");
        }
        Emit(Op::Input, *index, 0.0, +1);
        if (std::find(out_.inputs_.begin(), out_.inputs_.end(), *index) == out_.inputs_.end()) {
            out_.inputs_.push_back(*index);
        }
        return true;
    }
    bool ParseCall(std::string_view name) {
        Op op;
        if (name == "sum") op = Op::Sum;
        else if (name == "min") op = Op::Min;
        else if (name == "max") op = Op::Max;
        else if (name == "avg") op = Op::Average;
        else if (name == "ifnotzero") op = Op::IfNotZero;
        else {
            pos_ = static_cast<size_t>(name.data() - text_.data());  // report the name, not the '(' after it
            return Failure("unknown function '" + std::string(name) + "'");
        }
        ++pos_;  // '('
        uint32_t count = 0;
        if (!Peek(')')) {
            do {
                if (count > 0) ++pos_;  // ','
                if (!ParseExpr()) return false;
                ++count;
            } while (Peek(','));
        }
        if (!Peek(')')) return Failure("missing ')' after arguments of " + std::string(name));
        ++pos_;
        if (op == Op::IfNotZero && count != 3) return Failure("ifnotzero takes 3 arguments (test, then, else)");
        if (count == 0) return Failure(std::string(name) + " needs at least one argument");
        Emit(op, count, 0.0, 1 - static_cast<int>(count));
        return true;
    }

    std::string_view text_;
    const Expression::Resolver& resolve_;
    Expression& out_;
    size_t pos_ = 0;
    int depth_ = 0;
    std::string error_;
};

std::optional<Expression> Expression::Compile(std::string_view text, const Resolver& resolve, std::string* error) {
    Expression expression;
    ExpressionParser parser(text, resolve, expression);
    std::string message;
    if (!parser.Parse(&message)) {
        if (error != nullptr) *error = message;
        return std::nullopt;
    }
    return expression;
}

std::vector<std::string> Expression::Identifiers(std::string_view text) {
    std::vector<std::string> names;
    size_t i = 0;
    while (i < text.size()) {
        if (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.') {
            // Skip a number, exponent included, so that "1e6" does not yield an identifier "e6".
            while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
            continue;
        }
        if (!IsIdentifierStart(text[i])) {
            ++i;
            continue;
        }
        const size_t start = i;
        while (i < text.size() && IsIdentifierChar(text[i])) ++i;
        size_t next = i;
        while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
        const bool isCall = next < text.size() && text[next] == '(';
        std::string name(text.substr(start, i - start));
        if (!isCall && std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
    }
    return names;
}

double Expression::Evaluate(std::span<const double> values) const {
    // Small fixed stacks cover every realistic definition without allocating.
    constexpr uint32_t kInlineStack = 32;
    double inlineStack[kInlineStack];
    std::vector<double> heapStack;
    double* stack = inlineStack;
    if (maxStack_ > kInlineStack) {
        heapStack.resize(maxStack_);
        stack = heapStack.data();
    }
    uint32_t top = 0;
    for (const Instruction& in : program_) {
        switch (in.op) {
            case Op::Constant: stack[top++] = in.constant; break;
            case Op::Input: stack[top++] = in.operand < values.size() ? values[in.operand] : 0.0; break;
            case Op::Add: --top; stack[top - 1] += stack[top]; break;
            case Op::Subtract: --top; stack[top - 1] -= stack[top]; break;
            case Op::Multiply: --top; stack[top - 1] *= stack[top]; break;
            case Op::Divide:
                --top;
                stack[top - 1] = stack[top] == 0.0 ? 0.0 : stack[top - 1] / stack[top];
                break;
            case Op::Negate: stack[top - 1] = -stack[top - 1]; break;
            case Op::Sum:
            case Op::Average:
            case Op::Min:
            case Op::Max: {
                const uint32_t n = in.operand;
                double acc = stack[top - n];
                for (uint32_t k = top - n + 1; k < top; ++k) {
                    if (in.op == Op::Min) acc = std::min(acc, stack[k]);
                    else if (in.op == Op::Max) acc = std::max(acc, stack[k]);
                    else acc += stack[k];
                }
                if (in.op == Op::Average) acc /= n;
                top -= n;
                stack[top++] = acc;
                break;
            }
            case Op::IfNotZero: {
                const double test = stack[top - 3];
                const double result = test != 0.0 ? stack[top - 2] : stack[top - 1];
                top -= 3;
                stack[top++] = result;
                break;
            }
        }
    }
    return top == 0 ? 0.0 : stack[top - 1];
}

}  // namespace gpa
