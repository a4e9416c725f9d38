//===- LayoutParser.h - the parser of layout and memdesc text ---*- C++ -*-===//
//
// Private to lib/Analysis: the one recursive-descent parser over the text of
// `#ttg.*` layouts and `!ttg.memdesc<...>` types (Layouts.h). A value tree
// (integers, booleans, arrays, dictionaries, nested layouts) is parsed by
// TextParser (LayoutParser.cpp); a builder per layout kind checks the keys
// (unknown, duplicate, missing), ranges and ranks and fills the typed struct
// (LayoutBuilders.cpp, through DictReader). Nesting depth is bounded, every
// error carries the character offset, and nothing asserts on bad input.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_LIB_ANALYSIS_LAYOUTPARSER_H
#define TRITONMFMA_LIB_ANALYSIS_LAYOUTPARSER_H

#include "TritonMFMA/Layouts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace mlir::triton_mfma::layout_parser {

/// A parsed attribute value.
struct ParsedValue {
  enum class Kind { Int, Bool, Array, Dict, Layout };
  Kind kind = Kind::Int;
  size_t pos = 0; ///< offset of the value in the text
  int64_t intValue = 0;
  bool boolValue = false;
  std::vector<ParsedValue> elements;                        // Array
  std::vector<std::pair<std::string, ParsedValue>> entries; // Dict
  std::vector<size_t> keyPositions;                         // Dict
  LayoutPtr layout;                                         // Layout
};

constexpr unsigned kMaxDepth = 64;

class DictReader;

class TextParser {
public:
  TextParser(StringRef text, std::string *error) : text(text), error(error) {}

  LayoutPtr parseTopLevel() {
    LayoutPtr l = parseLayoutValue(0);
    if (!l)
      return nullptr;
    skipWs();
    if (pos != text.size())
      return fail("unexpected trailing characters after the layout");
    return l;
  }

  /// Parses "#ttg.<mnemonic>[<...>]" starting at the current position.
  LayoutPtr parseLayoutValue(unsigned depth);

  /// Reads the parameters of a type's `<...>` list at the current position
  /// up to the end of the text: the text between top-level commas (outside
  /// <>, [], {}, () and strings; `->` is not a bracket), trimmed. Fails
  /// (nothing consumed) on unbalanced brackets or an open string.
  bool parseTypeParams(SmallVectorImpl<StringRef> &params);

  bool failed() const { return hasFailed; }
  size_t getPos() const { return pos; }

private:
  StringRef text;
  std::string *error;
  size_t pos = 0;
  bool hasFailed = false;

  std::nullptr_t fail(const Twine &msg) { return failAt(pos, msg); }
  std::nullptr_t failAt(size_t at, const Twine &msg) {
    if (!hasFailed && error)
      *error = (msg + " (at offset " + Twine(at) + ")").str();
    hasFailed = true;
    return nullptr;
  }

  void skipWs() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }
  bool atEnd() {
    skipWs();
    return pos >= text.size();
  }
  char peek() {
    skipWs();
    return pos < text.size() ? text[pos] : '\0';
  }
  bool consumeIf(char c) {
    if (peek() == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeIf(StringRef s) {
    skipWs();
    if (text.substr(pos).starts_with(s)) {
      pos += s.size();
      return true;
    }
    return false;
  }
  bool expect(char c, StringRef what) {
    if (consumeIf(c))
      return true;
    if (atEnd())
      fail(Twine("expected '") + Twine(c) + "' " + what +
           ", but the text ended");
    else
      fail(Twine("expected '") + Twine(c) + "' " + what + ", got '" +
           Twine(text[pos]) + "'");
    return false;
  }
  static bool isIdentChar(char c) {
    return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$' || c == '-';
  }
  /// identifier or "quoted string"
  bool parseKey(std::string &key) {
    skipWs();
    if (pos < text.size() && text[pos] == '"') {
      size_t end = text.find('"', pos + 1);
      if (end == StringRef::npos) {
        fail("unterminated string");
        return false;
      }
      key = text.slice(pos + 1, end).str();
      pos = end + 1;
      return true;
    }
    size_t start = pos;
    while (pos < text.size() && (llvm::isAlnum(text[pos]) || text[pos] == '_'))
      ++pos;
    if (start == pos) {
      fail("expected a key");
      return false;
    }
    key = text.slice(start, pos).str();
    return true;
  }
  bool parseInt(int64_t &value) {
    skipWs();
    size_t start = pos;
    bool negative = false;
    if (pos < text.size() && text[pos] == '-') {
      negative = true;
      ++pos;
    }
    size_t digitsStart = pos;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      ++pos;
    if (digitsStart == pos) {
      failAt(start, "expected an integer");
      return false;
    }
    uint64_t magnitude = 0;
    if (text.slice(digitsStart, pos).getAsInteger(10, magnitude) ||
        magnitude >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      failAt(start, "integer out of range");
      return false;
    }
    value = negative ? -static_cast<int64_t>(magnitude)
                     : static_cast<int64_t>(magnitude);
    // Optional MLIR type suffix, e.g. `4 : i32`.
    size_t save = pos;
    skipWs();
    if (pos < text.size() && text[pos] == ':' &&
        !(pos + 1 < text.size() && text[pos + 1] == '+')) {
      ++pos;
      skipWs();
      size_t tstart = pos;
      while (pos < text.size() && llvm::isAlnum(text[pos]))
        ++pos;
      StringRef ty = text.slice(tstart, pos);
      if (!(ty.starts_with("i") || ty.starts_with("si") ||
            ty.starts_with("ui") || ty == "index")) {
        pos = save;
      }
    } else {
      pos = save;
    }
    return true;
  }

  // parseLayoutValue's steps and its builders, one per layout kind
  // (LayoutBuilders.cpp). A builder reads the kind's parameters up to its
  // closing '>' (which parseLayoutValue expects), checked as Triton's
  // parsers and verifiers do; null after failAt. `at`: the dictionary's
  // offset, for the errors.
  std::optional<LayoutKind> parseLayoutKind();
  std::function<std::nullptr_t(size_t, const Twine &)> failFn();
  LayoutPtr parseDictLayout(LayoutKind kind, const std::string &what,
                            unsigned depth);
  LayoutPtr parsePaddedShared(const std::string &what, unsigned depth);
  LayoutPtr buildPaddedSharedBases(DictReader &r, size_t at,
                                   const std::string &what,
                                   std::shared_ptr<PaddedSharedLayout> layout);
  LayoutPtr buildPaddedSharedShape(DictReader &r, size_t at,
                                   const std::string &what,
                                   std::shared_ptr<PaddedSharedLayout> layout);
  LayoutPtr buildBlocked(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildSlice(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildDotOperand(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildAMDMfma(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildAMDWmma(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildNvidiaMma(DictReader &r, size_t at, const std::string &what);
  LayoutPtr buildLinear(LayoutKind kind, DictReader &r, size_t at,
                        const std::string &what);
  LayoutPtr buildSwizzledShared(LayoutKind kind, DictReader &r, size_t at,
                                const std::string &what);
  LayoutPtr buildSharedLinear(DictReader &r, size_t at,
                              const std::string &what);
  LayoutPtr buildPartitionedShared(DictReader &r, size_t at,
                                   const std::string &what);
  LayoutPtr buildNVMMAShared(DictReader &r, size_t at, const std::string &what);

public:
  bool parseValue(ParsedValue &v, unsigned depth);
  bool parseDict(ParsedValue &v, unsigned depth);
};

/// Reads the entries of a parsed dictionary with checks.
class DictReader {
public:
  DictReader(const ParsedValue &dict, StringRef what,
             std::function<std::nullptr_t(size_t, const Twine &)> fail)
      : dict(dict), what(what), fail(std::move(fail)) {}

  /// Rejects duplicate keys and keys not in `allowed`.
  bool checkKeys(ArrayRef<StringRef> allowed) {
    for (size_t i = 0; i < dict.entries.size(); ++i) {
      const std::string &key = dict.entries[i].first;
      if (!llvm::is_contained(allowed, StringRef(key))) {
        fail(dict.keyPositions[i],
             "unexpected key '" + key + "' in " + what +
                 " (expected one of: " + llvm::join(allowed, ", ") + ")");
        return false;
      }
      for (size_t j = 0; j < i; ++j) {
        if (dict.entries[j].first == key) {
          fail(dict.keyPositions[i], "duplicate key '" + key + "' in " + what);
          return false;
        }
      }
    }
    return true;
  }

  const ParsedValue *get(StringRef key) const {
    for (const auto &[k, v] : dict.entries)
      if (k == key)
        return &v;
    return nullptr;
  }

  const ParsedValue *require(StringRef key) {
    const ParsedValue *v = get(key);
    if (!v)
      fail(dict.pos, "missing '" + key + "' in " + what);
    return v;
  }

  bool toUInt(const ParsedValue &v, StringRef key, unsigned &out) {
    if (v.kind != ParsedValue::Kind::Int) {
      fail(v.pos, "expected an integer for '" + key + "' in " + what);
      return false;
    }
    if (v.intValue < 0 || v.intValue > std::numeric_limits<unsigned>::max()) {
      fail(v.pos, "expected a non-negative 32-bit integer for '" + key +
                      "' in " + what);
      return false;
    }
    out = static_cast<unsigned>(v.intValue);
    return true;
  }
  bool uintField(StringRef key, unsigned &out, bool required = true) {
    const ParsedValue *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    return toUInt(*v, key, out);
  }
  bool boolField(StringRef key, bool &out, bool required = true) {
    const ParsedValue *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    if (v->kind != ParsedValue::Kind::Bool) {
      fail(v->pos, "expected true or false for '" + key + "' in " + what);
      return false;
    }
    out = v->boolValue;
    return true;
  }
  bool uintArray(const ParsedValue &v, StringRef key,
                 SmallVectorImpl<unsigned> &out) {
    if (v.kind != ParsedValue::Kind::Array) {
      fail(v.pos, "expected an array of integers for '" + key + "' in " + what);
      return false;
    }
    out.clear();
    for (const ParsedValue &e : v.elements) {
      unsigned x;
      if (!toUInt(e, key, x))
        return false;
      out.push_back(x);
    }
    return true;
  }
  bool uintArrayField(StringRef key, SmallVectorImpl<unsigned> &out,
                      bool required = true) {
    const ParsedValue *v = required ? require(key) : get(key);
    if (!v)
      return !required;
    return uintArray(*v, key, out);
  }
  /// `[[a, b], [c, d]]`; every basis must have `rank` entries (if rank != 0;
  /// otherwise the first basis fixes it and `rank` is updated).
  bool basisList(const ParsedValue &v, StringRef key, BasisList &out,
                 unsigned &rank) {
    if (v.kind != ParsedValue::Kind::Array) {
      fail(v.pos, "expected an array of bases for '" + key + "' in " + what);
      return false;
    }
    out.clear();
    for (const ParsedValue &b : v.elements) {
      if (b.kind != ParsedValue::Kind::Array) {
        fail(b.pos, "expected a basis (array of integers) in '" + key +
                        "' of " + what);
        return false;
      }
      Basis basis;
      for (const ParsedValue &e : b.elements) {
        if (e.kind != ParsedValue::Kind::Int ||
            e.intValue < std::numeric_limits<int32_t>::min() ||
            e.intValue > std::numeric_limits<int32_t>::max()) {
          fail(e.pos,
               "expected a 32-bit integer in basis '" + key + "' of " + what);
          return false;
        }
        basis.push_back(static_cast<int32_t>(e.intValue));
      }
      if (rank == 0)
        rank = basis.size();
      if (basis.size() != rank) {
        fail(b.pos, "basis of '" + key + "' in " + what + " has " +
                        Twine(basis.size()) + " entries, expected rank " +
                        Twine(rank));
        return false;
      }
      out.push_back(std::move(basis));
    }
    return true;
  }
  bool cgaField(CGALayout &cga, unsigned rank) {
    const ParsedValue *v = get("CGALayout");
    if (!v)
      return true;
    unsigned r = rank;
    return basisList(*v, "CGALayout", cga.block, r);
  }
  bool layoutField(StringRef key, LayoutPtr &out) {
    const ParsedValue *v = require(key);
    if (!v)
      return false;
    if (v->kind != ParsedValue::Kind::Layout) {
      fail(v->pos, "expected a #ttg layout for '" + key + "' in " + what);
      return false;
    }
    out = v->layout;
    return true;
  }

  const ParsedValue &dict;
  std::string what;
  std::function<std::nullptr_t(size_t, const Twine &)> fail;
};

} // namespace mlir::triton_mfma::layout_parser

#endif // TRITONMFMA_LIB_ANALYSIS_LAYOUTPARSER_H
