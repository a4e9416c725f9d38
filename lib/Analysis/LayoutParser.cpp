//===- LayoutParser.cpp - the parser of layout and memdesc text -----------===//
//
// The value-tree parser (LayoutParser.h), the entry points of Layouts.h that
// parse layout text and attributes, and the memdesc grammar:
//
//   !ttg.memdesc<AxBx...xT, encoding, memory space[, mutable][, alloc shape]>
//
// whose element type is MLIR syntax (parsed by MLIR) and whose encoding and
// memory space, when `#ttg.*`, are layouts (parsed here).
//
//===----------------------------------------------------------------------===//

#include "LayoutParser.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::triton_mfma;
using namespace mlir::triton_mfma::layout_parser;

bool TextParser::parseDict(ParsedValue &v, unsigned depth) {
  v.kind = ParsedValue::Kind::Dict;
  v.pos = pos;
  if (!expect('{', "to open a dictionary"))
    return false;
  if (consumeIf('}'))
    return true;
  do {
    std::string key;
    size_t keyPos = (skipWs(), pos);
    if (!parseKey(key))
      return false;
    if (!expect('=', ("after key '" + key + "'").c_str()))
      return false;
    ParsedValue value;
    if (!parseValue(value, depth + 1))
      return false;
    v.entries.emplace_back(std::move(key), std::move(value));
    v.keyPositions.push_back(keyPos);
  } while (consumeIf(','));
  return expect('}', "to close the dictionary");
}

bool TextParser::parseValue(ParsedValue &v, unsigned depth) {
  if (depth > kMaxDepth) {
    fail("nesting too deep");
    return false;
  }
  skipWs();
  v.pos = pos;
  char c = peek();
  if (c == '[') {
    ++pos;
    v.kind = ParsedValue::Kind::Array;
    if (consumeIf(']'))
      return true;
    do {
      ParsedValue e;
      if (!parseValue(e, depth + 1))
        return false;
      v.elements.push_back(std::move(e));
    } while (consumeIf(','));
    return expect(']', "to close the array");
  }
  if (c == '{')
    return parseDict(v, depth);
  if (c == '#') {
    v.kind = ParsedValue::Kind::Layout;
    v.layout = parseLayoutValue(depth + 1);
    return v.layout != nullptr;
  }
  if (c == '-' || llvm::isDigit(c)) {
    v.kind = ParsedValue::Kind::Int;
    return parseInt(v.intValue);
  }
  if (consumeIf("true")) {
    v.kind = ParsedValue::Kind::Bool;
    v.boolValue = true;
    return true;
  }
  if (consumeIf("false")) {
    v.kind = ParsedValue::Kind::Bool;
    v.boolValue = false;
    return true;
  }
  if (c == '\0')
    fail("expected a value, but the text ended");
  else
    fail(Twine("unexpected character '") + Twine(c) + "' in a value");
  return false;
}

bool TextParser::parseTypeParams(SmallVectorImpl<StringRef> &params) {
  int depth = 0;
  bool inString = false;
  size_t start = pos;
  SmallVector<StringRef> found;
  for (size_t i = pos; i < text.size(); ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '<':
    case '[':
    case '{':
    case '(':
      ++depth;
      break;
    case '>':
      // `->` in function types is not a closing bracket.
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ']':
    case '}':
    case ')':
      if (--depth < 0)
        return false;
      break;
    case ',':
      if (depth == 0) {
        found.push_back(text.slice(start, i).trim());
        start = i + 1;
      }
      break;
    default:
      break;
    }
  }
  if (depth != 0 || inString)
    return false;
  found.push_back(text.substr(start).trim());
  params.append(found.begin(), found.end());
  pos = text.size();
  return true;
}

LayoutPtr mlir::triton_mfma::parseLayout(StringRef text, std::string *error) {
  TextParser parser(text, error);
  return parser.parseTopLevel();
}

bool mlir::triton_mfma::isTTGAttr(Attribute attr) {
  auto opaque = dyn_cast_or_null<OpaqueAttr>(attr);
  return opaque && opaque.getDialectNamespace().getValue() == "ttg";
}

std::string mlir::triton_mfma::getTTGAttrText(Attribute attr) {
  if (!isTTGAttr(attr))
    return "";
  return ("#ttg." + cast<OpaqueAttr>(attr).getAttrData()).str();
}

LayoutPtr mlir::triton_mfma::parseLayout(Attribute attr, std::string *error) {
  if (!isTTGAttr(attr)) {
    if (error) {
      std::string s;
      llvm::raw_string_ostream os(s);
      if (attr)
        attr.print(os);
      else
        os << "<<null>>";
      *error = "not a #ttg layout: " + s;
    }
    return nullptr;
  }
  return parseLayout(getTTGAttrText(attr), error);
}

//===----------------------------------------------------------------------===//
// Memdesc types
//===----------------------------------------------------------------------===//

static bool parseDimList(StringRef text, SmallVectorImpl<int64_t> &dims) {
  SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef p : parts) {
    int64_t d;
    if (p.trim().getAsInteger(10, d) || d < 0)
      return false;
    dims.push_back(d);
  }
  return !dims.empty();
}

FailureOr<MemDescInfo> mlir::triton_mfma::parseMemDesc(StringRef text,
                                                       MLIRContext *ctx,
                                                       std::string *error) {
  auto fail = [&](const Twine &msg) -> FailureOr<MemDescInfo> {
    if (error)
      *error = (msg + " in '" + text + "'").str();
    return failure();
  };
  StringRef body = text.trim();
  body.consume_front("!ttg.");
  if (!body.consume_front("memdesc<") || !body.consume_back(">"))
    return fail("expected '!ttg.memdesc<...>'");
  SmallVector<StringRef> parts;
  TextParser params(body, nullptr);
  if (!params.parseTypeParams(parts) || parts.size() < 3 || parts.size() > 5)
    return fail("malformed memdesc: expected "
                "'<shape x type, encoding, memory space[, mutable][, alloc "
                "shape]>'");
  MemDescInfo info;
  // Leading "AxBx...x" dimensions, then the element type.
  StringRef shapeAndType = parts[0];
  while (!shapeAndType.empty() && llvm::isDigit(shapeAndType.front())) {
    size_t n = 0;
    while (n < shapeAndType.size() && llvm::isDigit(shapeAndType[n]))
      ++n;
    if (n >= shapeAndType.size() || shapeAndType[n] != 'x')
      break;
    int64_t dim;
    if (shapeAndType.take_front(n).getAsInteger(10, dim))
      return fail("bad dimension");
    info.shape.push_back(dim);
    shapeAndType = shapeAndType.drop_front(n + 1);
  }
  if (shapeAndType.empty())
    return fail("missing element type");
  info.elementTypeText = shapeAndType.str();
  if (ctx) {
    size_t numRead = 0;
    info.elementType = mlir::parseType(shapeAndType, ctx, &numRead,
                                       /*isKnownNullTerminated=*/false);
    if (!info.elementType || numRead != shapeAndType.size())
      return fail("cannot parse element type '" + shapeAndType + "'");
  }
  info.encodingText = parts[1].str();
  info.memorySpaceText = parts[2].str();
  auto parseInner = [&](const std::string &layoutText, LayoutPtr &out) {
    if (!StringRef(layoutText).starts_with("#ttg."))
      return true;
    std::string innerError;
    out = parseLayout(layoutText, &innerError);
    if (!out && error)
      *error = "cannot parse layout " + layoutText + ": " + innerError;
    return out != nullptr;
  };
  if (!parseInner(info.encodingText, info.encoding) ||
      !parseInner(info.memorySpaceText, info.memorySpace))
    return failure();
  size_t next = 3;
  if (next < parts.size() && parts[next] == "mutable") {
    info.mutableMemory = true;
    ++next;
  }
  if (next < parts.size()) {
    if (!parseDimList(parts[next], info.allocShape))
      return fail("bad alloc shape '" + parts[next] + "'");
    ++next;
  } else {
    info.allocShape = info.shape;
  }
  if (next != parts.size())
    return fail("unexpected trailing memdesc parameters");
  return info;
}
