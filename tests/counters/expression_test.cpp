// The derived-counter expression language (src/counters/expression.h): every operator and function,
// precedence, numbers, identifiers, errors with their position, Inputs() and Identifiers().
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "counters/expression.h"

namespace gpa {
namespace {

// Hardware counter names and the index of their value.
const std::map<std::string, uint32_t, std::less<>> kNames = {
    {"a", 0}, {"b", 1}, {"c", 2}, {"dram__bytes_read.sum", 3}, {"x.y.z", 4}, {"_under", 5}, {"zero", 6},
};

Expression::Resolver Resolver() {
    return [](std::string_view name) -> std::optional<uint32_t> {
        auto it = kNames.find(name);
        if (it == kNames.end()) return std::nullopt;
        return it->second;
    };
}

// a=2, b=3, c=-4, dram__bytes_read.sum=2048, x.y.z=0.5, _under=10, zero=0
const std::vector<double> kValues = {2, 3, -4, 2048, 0.5, 10, 0};

std::optional<Expression> Compile(const std::string& text, std::string* error = nullptr) {
    std::string message;
    std::optional<Expression> e = Expression::Compile(text, Resolver(), &message);
    if (error != nullptr) *error = message;
    return e;
}

// Value of `text` over kValues; fails the test if it does not compile.
double Eval(const std::string& text, const std::vector<double>& values = kValues) {
    std::string error;
    std::optional<Expression> e = Compile(text, &error);
    if (!e) {
        ADD_FAILURE() << "'" << text << "' does not compile: " << error;
        return -999999.0;
    }
    return e->Evaluate(values);
}

// The error `text` gives (fails the test if it compiles).
std::string Error(const std::string& text) {
    std::string error;
    std::optional<Expression> e = Compile(text, &error);
    EXPECT_FALSE(e.has_value()) << "'" << text << "' compiled";
    EXPECT_FALSE(error.empty()) << text;
    return error;
}

// ---- numbers ----------------------------------------------------------------------------------------------

TEST(Expression, Numbers) {
    EXPECT_DOUBLE_EQ(Eval("42"), 42);
    EXPECT_DOUBLE_EQ(Eval("0"), 0);
    EXPECT_DOUBLE_EQ(Eval("3.25"), 3.25);
    EXPECT_DOUBLE_EQ(Eval(".5"), 0.5);
    EXPECT_DOUBLE_EQ(Eval("7."), 7);
    EXPECT_DOUBLE_EQ(Eval("1e6"), 1e6);
    EXPECT_DOUBLE_EQ(Eval("1E6"), 1e6);
    EXPECT_DOUBLE_EQ(Eval("2.5e-3"), 2.5e-3);
    EXPECT_DOUBLE_EQ(Eval("1e+2"), 100);
    EXPECT_DOUBLE_EQ(Eval("1e6-1"), 999999);  // the '-' after a complete exponent is a subtraction
    EXPECT_DOUBLE_EQ(Eval("a / 1e6"), 2e-6);
}

TEST(Expression, MalformedNumbersAreErrors) {
    EXPECT_NE(Error("1.2.3").find("malformed number '1.2.3' at position 0"), std::string::npos);
    EXPECT_NE(Error("2x").find("malformed number '2x'"), std::string::npos);
    EXPECT_NE(Error("a + 1e").find("malformed number '1e' at position 4"), std::string::npos);
}

// ---- operators ---------------------------------------------------------------------------------------------

TEST(Expression, Add) {
    EXPECT_DOUBLE_EQ(Eval("1+2"), 3);
    EXPECT_DOUBLE_EQ(Eval("a + b"), 5);
    EXPECT_DOUBLE_EQ(Eval("1 + 2 + 3 + 4"), 10);
}

TEST(Expression, Subtract) {
    EXPECT_DOUBLE_EQ(Eval("5-7"), -2);
    EXPECT_DOUBLE_EQ(Eval("b - a"), 1);
    EXPECT_DOUBLE_EQ(Eval("8-3-2"), 3);  // left to right
}

TEST(Expression, Multiply) {
    EXPECT_DOUBLE_EQ(Eval("6*7"), 42);
    EXPECT_DOUBLE_EQ(Eval("a * c"), -8);
    EXPECT_DOUBLE_EQ(Eval("2*3*4"), 24);
}

TEST(Expression, Divide) {
    EXPECT_DOUBLE_EQ(Eval("7/2"), 3.5);
    EXPECT_DOUBLE_EQ(Eval("b / a"), 1.5);
    EXPECT_DOUBLE_EQ(Eval("16/4/2"), 2);  // left to right
}

TEST(Expression, DivisionByZeroGivesZero) {
    EXPECT_EQ(Eval("1/0"), 0.0);
    EXPECT_EQ(Eval("0/0"), 0.0);
    EXPECT_EQ(Eval("a / zero"), 0.0);
    EXPECT_EQ(Eval("-a / (b - b)"), 0.0);
    EXPECT_DOUBLE_EQ(Eval("1 + a / zero"), 1);
    EXPECT_EQ(Eval("100 * a / zero"), 0.0);
}

TEST(Expression, UnaryMinus) {
    EXPECT_DOUBLE_EQ(Eval("-3"), -3);
    EXPECT_DOUBLE_EQ(Eval("--3"), 3);
    EXPECT_DOUBLE_EQ(Eval("- -a"), 2);
    EXPECT_DOUBLE_EQ(Eval("-a"), -2);
    EXPECT_DOUBLE_EQ(Eval("2*-3"), -6);
    EXPECT_DOUBLE_EQ(Eval("2--3"), 5);
    EXPECT_DOUBLE_EQ(Eval("-(2+3)"), -5);
    EXPECT_DOUBLE_EQ(Eval("-2*3"), -6);
    EXPECT_DOUBLE_EQ(Eval("-c"), 4);
    EXPECT_DOUBLE_EQ(Eval("-1e6"), -1e6);
}

TEST(Expression, Precedence) {
    EXPECT_DOUBLE_EQ(Eval("2+3*4"), 14);
    EXPECT_DOUBLE_EQ(Eval("2*3+4"), 10);
    EXPECT_DOUBLE_EQ(Eval("10-4/2"), 8);
    EXPECT_DOUBLE_EQ(Eval("10/4*2"), 5);  // same level: left to right
    EXPECT_DOUBLE_EQ(Eval("1-2+3"), 2);
    EXPECT_DOUBLE_EQ(Eval("100 * b / a"), 150);
    EXPECT_DOUBLE_EQ(Eval("a + b * c - 6 / b"), 2 + 3 * -4 - 2);
}

TEST(Expression, Parentheses) {
    EXPECT_DOUBLE_EQ(Eval("(2+3)*4"), 20);
    EXPECT_DOUBLE_EQ(Eval("((1))"), 1);
    EXPECT_DOUBLE_EQ(Eval("2*(3+(4-1))"), 12);
    EXPECT_DOUBLE_EQ(Eval("(a+b)/(b-a)"), 5);
    EXPECT_DOUBLE_EQ(Eval("8-(3-2)"), 7);
    EXPECT_DOUBLE_EQ(Eval("16/(4/2)"), 8);
}

TEST(Expression, WhitespaceIsIgnored) {
    EXPECT_DOUBLE_EQ(Eval("  a\t+\n b *  ( 1 )  "), 5);
    EXPECT_DOUBLE_EQ(Eval("sum ( a , b )"), 5);
}

// ---- functions ---------------------------------------------------------------------------------------------

TEST(Expression, Sum) {
    EXPECT_DOUBLE_EQ(Eval("sum(5)"), 5);
    EXPECT_DOUBLE_EQ(Eval("sum(a, b)"), 5);
    EXPECT_DOUBLE_EQ(Eval("sum(a, b, c, 1)"), 2);
    EXPECT_DOUBLE_EQ(Eval("sum(a*2, b+1, -c)"), 12);
}

TEST(Expression, Min) {
    EXPECT_DOUBLE_EQ(Eval("min(5)"), 5);
    EXPECT_DOUBLE_EQ(Eval("min(a, b)"), 2);
    EXPECT_DOUBLE_EQ(Eval("min(b, a)"), 2);
    EXPECT_DOUBLE_EQ(Eval("min(3, c, 2, 9)"), -4);
}

TEST(Expression, Max) {
    EXPECT_DOUBLE_EQ(Eval("max(5)"), 5);
    EXPECT_DOUBLE_EQ(Eval("max(a, b)"), 3);
    EXPECT_DOUBLE_EQ(Eval("max(b, a)"), 3);
    EXPECT_DOUBLE_EQ(Eval("max(c, -9, -5)"), -4);
}

TEST(Expression, Avg) {
    EXPECT_DOUBLE_EQ(Eval("avg(5)"), 5);
    EXPECT_DOUBLE_EQ(Eval("avg(a, b)"), 2.5);
    EXPECT_DOUBLE_EQ(Eval("avg(1, 2, 3, 4)"), 2.5);
    EXPECT_DOUBLE_EQ(Eval("avg(a, b, c)"), 1.0 / 3.0);
}

TEST(Expression, FunctionsNestAndCombineWithOperators) {
    EXPECT_DOUBLE_EQ(Eval("max(sum(1, 2), 2*2)"), 4);
    EXPECT_DOUBLE_EQ(Eval("1 + min(a, b) * 10"), 21);
    EXPECT_DOUBLE_EQ(Eval("-avg(a, b)"), -2.5);
    EXPECT_DOUBLE_EQ(Eval("sum(min(a, b), max(a, b), avg(a, b))"), 7.5);
    EXPECT_DOUBLE_EQ(Eval("100 * sum(a, b) / max(a, b, zero)"), 500.0 / 3.0);
}

TEST(Expression, FunctionsWithManyArguments) {
    // Forty arguments deepen the evaluation stack beyond its inline size.
    std::string sum = "sum(";
    std::string max = "max(";
    for (int i = 1; i <= 40; ++i) {
        sum += (i > 1 ? "," : "") + std::to_string(i);
        max += (i > 1 ? "," : "") + std::to_string(i % 17);
    }
    EXPECT_DOUBLE_EQ(Eval(sum + ")"), 820);
    EXPECT_DOUBLE_EQ(Eval(max + ")"), 16);
    EXPECT_DOUBLE_EQ(Eval("1 + " + sum + ") * 2"), 1641);
}

TEST(Expression, DeeplyNestedExpression) {
    std::string text;
    for (int i = 0; i < 50; ++i) text += "(1+";
    text += "0";
    for (int i = 0; i < 50; ++i) text += ")";
    EXPECT_DOUBLE_EQ(Eval(text), 50);
    std::string right = "0";
    for (int i = 0; i < 60; ++i) right = "1+(" + right + ")";
    EXPECT_DOUBLE_EQ(Eval(right), 60);
}

TEST(Expression, IfNotZero) {
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(1, 2, 3)"), 2);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(0, 2, 3)"), 3);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(-1, 2, 3)"), 2);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(1e-300, 2, 3)"), 2);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(zero, b / zero, 7)"), 7);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(a, b / a, 7)"), 1.5);
    EXPECT_DOUBLE_EQ(Eval("ifnotzero(b - b, 1, ifnotzero(a, 10, 20))"), 10);
    EXPECT_DOUBLE_EQ(Eval("2 * ifnotzero(a - 2, 5, 6) + 1"), 13);
}

// ---- identifiers -------------------------------------------------------------------------------------------

TEST(Expression, IdentifiersWithDotsAndUnderscores) {
    EXPECT_DOUBLE_EQ(Eval("dram__bytes_read.sum / 1024"), 2);
    EXPECT_DOUBLE_EQ(Eval("x.y.z * 4"), 2);
    EXPECT_DOUBLE_EQ(Eval("_under + 1"), 11);
}

TEST(Expression, InputsListsEachIdentifierOnceInOrderOfFirstUse) {
    std::optional<Expression> e = Compile("b + a * b + dram__bytes_read.sum / sum(a, c)");
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->Inputs(), (std::vector<uint32_t>{1, 0, 3, 2}));
    std::optional<Expression> constant = Compile("1 + 2");
    ASSERT_TRUE(constant.has_value());
    EXPECT_TRUE(constant->Inputs().empty());
}

TEST(Expression, EvaluationReadsValuesByIndex) {
    std::optional<Expression> e = Compile("a - b");
    ASSERT_TRUE(e.has_value());
    EXPECT_DOUBLE_EQ(e->Evaluate(std::vector<double>{10, 4}), 6);
    EXPECT_DOUBLE_EQ(e->Evaluate(std::vector<double>{1, 1}), 0);
    // An input beyond the values given reads as 0.
    EXPECT_DOUBLE_EQ(e->Evaluate(std::vector<double>{10}), 10);
}

// ---- errors ------------------------------------------------------------------------------------------------

TEST(Expression, UnknownIdentifierIsAnErrorAtItsPosition) {
    const std::string error = Error("a + nope * 2");
    EXPECT_EQ(error, "unknown counter 'nope' at position 4 in \"a + nope * 2\"");
    EXPECT_NE(Error("sum(a, b, hw.absent)").find("unknown counter 'hw.absent' at position 10"), std::string::npos);
    // Names are exact: counter names are case-sensitive here (the catalog handles GPA names).
    EXPECT_NE(Error("A").find("unknown counter 'A'"), std::string::npos);
}

TEST(Expression, UnknownFunctionIsAnErrorAtItsName) {
    EXPECT_EQ(Error("1 + foo(1)"), "unknown function 'foo' at position 4 in \"1 + foo(1)\"");
    EXPECT_NE(Error("SUM(1)").find("unknown function 'SUM' at position 0"), std::string::npos);
}

TEST(Expression, SyntaxErrorsSayWhatAndWhere) {
    EXPECT_EQ(Error(""), "expression ends too early at position 0 in \"\"");
    EXPECT_EQ(Error("   "), "expression ends too early at position 3 in \"   \"");
    EXPECT_EQ(Error("1 +"), "expression ends too early at position 3 in \"1 +\"");
    EXPECT_EQ(Error("(1+2"), "missing ')' at position 4 in \"(1+2\"");
    EXPECT_EQ(Error("1 2"), "unexpected '2' at position 2 in \"1 2\"");
    EXPECT_EQ(Error("1 $ 2"), "unexpected '$' at position 2 in \"1 $ 2\"");
    EXPECT_EQ(Error("(1))"), "unexpected ')' at position 3 in \"(1))\"");
    EXPECT_EQ(Error("*2"), "unexpected '*' at position 0 in \"*2\"");
    EXPECT_EQ(Error("2 * / 3"), "unexpected '/' at position 4 in \"2 * / 3\"");
    EXPECT_EQ(Error("a b"), "unexpected 'b' at position 2 in \"a b\"");
}

TEST(Expression, FunctionArgumentErrors) {
    EXPECT_NE(Error("sum()").find("sum needs at least one argument"), std::string::npos);
    EXPECT_NE(Error("avg( )").find("avg needs at least one argument"), std::string::npos);
    EXPECT_NE(Error("ifnotzero(1, 2)").find("ifnotzero takes 3 arguments"), std::string::npos);
    EXPECT_NE(Error("ifnotzero(1, 2, 3, 4)").find("ifnotzero takes 3 arguments"), std::string::npos);
    EXPECT_EQ(Error("sum(1,)"), "unexpected ')' at position 6 in \"sum(1,)\"");
    EXPECT_EQ(Error("sum(1 2)"), "missing ')' after arguments of sum at position 6 in \"sum(1 2)\"");
    EXPECT_EQ(Error("max(1, 2"), "missing ')' after arguments of max at position 8 in \"max(1, 2\"");
}

TEST(Expression, CompileWithoutAnErrorStringStillFails) {
    EXPECT_FALSE(Expression::Compile("1 +", Resolver(), nullptr).has_value());
    EXPECT_TRUE(Expression::Compile("1 + a", Resolver(), nullptr).has_value());
}

// ---- Identifiers() -----------------------------------------------------------------------------------------

TEST(Expression, IdentifiersListsCounterNamesNotFunctionsOrNumbers) {
    using Names = std::vector<std::string>;
    EXPECT_EQ(Expression::Identifiers("a + b.c * sum(d, a) / 1e6"), (Names{"a", "b.c", "d"}));
    EXPECT_EQ(Expression::Identifiers("ifnotzero(x, y, z)"), (Names{"x", "y", "z"}));
    EXPECT_EQ(Expression::Identifiers("2.5e-3 * k + 1E6"), (Names{"k"}));
    EXPECT_EQ(Expression::Identifiers("max (q)"), (Names{"q"}));
    EXPECT_EQ(Expression::Identifiers("dram__bytes_read.sum/1024"), (Names{"dram__bytes_read.sum"}));
    EXPECT_EQ(Expression::Identifiers("b + a + b"), (Names{"b", "a"}));
    EXPECT_EQ(Expression::Identifiers("100 * (1 - 0.5)"), Names{});
    EXPECT_EQ(Expression::Identifiers(""), Names{});
    // It needs no resolver: unknown names are listed too, even in text that would not compile.
    EXPECT_EQ(Expression::Identifiers("unknown.counter + + ("), (Names{"unknown.counter"}));
}

}  // namespace
}  // namespace gpa
