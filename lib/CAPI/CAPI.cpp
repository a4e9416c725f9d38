//===- CAPI.cpp - C API of libTritonMFMA.so -------------------------------===//
//
// tmfma_run_pipeline(_ex): generic MLIR text in, generic MLIR text out (and
// the passes' outcomes, PassOutcome.h).
//
//  1. A fresh MLIRContext per call (threading disabled, unregistered dialects
//     allowed, only `builtin` loaded): tt/ttg/amdg/arith/scf/... stay generic
//     ops, their attributes/types OpaqueAttr/OpaqueType. Registering arith or
//     scf here would change how the text parses and prints, so we don't.
//  2. A ScopedDiagnosticHandler collects every diagnostic as
//     "<severity>: <location>: <message>" lines.
//  3. The pipeline is parsed with the (global, read-only after registration)
//     pass registry and run; then the module is printed generic, with debug
//     locations (non-pretty), local scope (no aliases) and NameLoc result
//     names -- the same flags Triton uses for its generic print, so that an
//     empty pipeline returns the input byte for byte.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/CAPI.h"
#include "TritonMFMA/GenericIR.h"
#include "TritonMFMA/L2Model.h"
#include "TritonMFMA/MfmaTable.h"
#include "TritonMFMA/PassOutcome.h"
#include "TritonMFMA/Passes.h"
#include "TritonMFMA/TargetInfo.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace mlir;

namespace mlir::triton_mfma {
void registerAllOnce();
} // namespace mlir::triton_mfma

void mlir::triton_mfma::registerAllOnce() {
  // Function-local static: thread-safe one-time initialization.
  static const bool registered = [] {
    registerTritonMFMAPasses();
    return true;
  }();
  (void)registered;
}

static const char *severityName(DiagnosticSeverity s) {
  switch (s) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

static void appendDiagnostic(std::string &out, DiagnosticSeverity severity,
                             Location loc, llvm::StringRef message) {
  out += severityName(severity);
  out += ": ";
  out += mlir::triton_mfma::formatDiagnosticLocation(loc);
  out += ": ";
  // One diagnostic per line: a multi-line message is joined with spaces.
  SmallVector<StringRef> lines;
  message.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  bool first = true;
  for (StringRef line : lines) {
    line = line.trim();
    if (line.empty())
      continue;
    if (!first)
      out += " ";
    first = false;
    out += line.str();
  }
  out += "\n";
}

static char *dupString(llvm::StringRef s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (!p)
    return nullptr;
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return p;
}

/// A pipeline not anchored on builtin.module(...) or any(...) is wrapped in
/// builtin.module(...), so "mfma-print-layouts" works as well.
static std::string normalizePipeline(llvm::StringRef pipeline) {
  pipeline = pipeline.trim();
  if (pipeline.starts_with("builtin.module(") || pipeline.starts_with("any("))
    return pipeline.str();
  return ("builtin.module(" + pipeline + ")").str();
}

namespace {
enum ResultCode : int {
  kOk = 0,
  kParseError = 1,
  kPipelineError = 2,
  kPassFailure = 3,
  kBadArgument = 4,
};
} // namespace

static int runPipeline(const char *input, const char *pipelineText,
                       std::string &output, std::string &diagnostics,
                       std::string *outcomes) {
  mlir::triton_mfma::registerAllOnce();
  mlir::triton_mfma::PassOutcomeCollector collector;

  MLIRContext context(MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  context.printOpOnDiagnostic(false);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    appendDiagnostic(diagnostics, diag.getSeverity(), diag.getLocation(),
                     diag.str());
    for (Diagnostic &note : diag.getNotes())
      appendDiagnostic(diagnostics, note.getSeverity(), note.getLocation(),
                       note.str());
    return success();
  });

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(input, config, "<input>");
  if (!module)
    return kParseError;

  llvm::StringRef pipeline = pipelineText ? pipelineText : "";
  if (!pipeline.trim().empty()) {
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    FailureOr<OpPassManager> parsed =
        parsePassPipeline(normalizePipeline(pipeline), errorStream);
    if (failed(parsed)) {
      std::string msg = "invalid pass pipeline '" + pipeline.str() + "'";
      if (!errors.empty())
        msg += ": " + llvm::StringRef(errors).trim().str();
      appendDiagnostic(diagnostics, DiagnosticSeverity::Error,
                       UnknownLoc::get(&context), msg);
      return kPipelineError;
    }
    PassManager pm(&context, parsed->getOpAnchorName(),
                   OpPassManager::Nesting::Explicit);
    static_cast<OpPassManager &>(pm) = std::move(*parsed);
    collector.instrument(pm);
    LogicalResult ran = pm.run(*module);
    if (outcomes)
      *outcomes = collector.str();
    if (failed(ran))
      return kPassFailure;
  }

  llvm::raw_string_ostream os(output);
  OpPrintingFlags flags;
  flags.printGenericOpForm()
      .enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
      .useLocalScope()
      .printNameLocAsPrefix();
  module->print(os, flags);
  return kOk;
}

extern "C" int tmfma_run_pipeline_ex(const char *input, const char *pipeline,
                                     char **output, char **diagnostics,
                                     char **outcomes) {
  if (output)
    *output = nullptr;
  if (diagnostics)
    *diagnostics = nullptr;
  if (outcomes)
    *outcomes = nullptr;
  if (!input || !output) {
    if (diagnostics)
      *diagnostics = dupString("error: unknown: tmfma_run_pipeline: input "
                               "and output must not be NULL\n");
    if (outcomes)
      *outcomes = dupString("");
    return kBadArgument;
  }
  std::string out, diags, passOutcomes;
  int rc = runPipeline(input, pipeline, out, diags,
                       outcomes ? &passOutcomes : nullptr);
  if (rc == kOk)
    *output = dupString(out);
  if (diagnostics)
    *diagnostics = dupString(diags);
  if (outcomes)
    *outcomes = dupString(passOutcomes);
  return rc;
}

extern "C" int tmfma_run_pipeline(const char *input, const char *pipeline,
                                  char **output, char **diagnostics) {
  return tmfma_run_pipeline_ex(input, pipeline, output, diagnostics,
                               /*outcomes=*/nullptr);
}

extern "C" void tmfma_free(char *p) { std::free(p); }

extern "C" char *tmfma_mfma_table(void) {
  using namespace mlir::triton_mfma;
  std::string text;
  llvm::raw_string_ostream os(text);
  for (GfxArch arch : {GfxArch::GFX90A, GfxArch::GFX942, GfxArch::GFX950})
    for (const MfmaInstr &i : getMfmaInstrs(arch))
      os << getArchName(arch) << " " << i.mnemonic << " " << i.passes * 4
         << " " << i.m * i.n * i.kPerInstr << "\n";
  os.flush();
  return dupString(text);
}

extern "C" char *tmfma_target_info(void) {
  return dupString(mlir::triton_mfma::getTargetInfoJSON());
}

extern "C" char *tmfma_l2_query(const char *request) {
  return dupString(mlir::triton_mfma::queryL2Model(request ? request : ""));
}

extern "C" const char *tmfma_version(void) {
  return TMFMA_VERSION_STRING " (MLIR " TMFMA_MLIR_VERSION_STRING ")";
}
