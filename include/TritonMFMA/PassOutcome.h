//===- PassOutcome.h - what each pass run did -------------------*- C++ -*-===//
//
// Every pass of ours records, per run, a structured outcome: applied (it
// changed the IR), unchanged (nothing to do, or it chose not to), or declined
// (it refuses the module: the caller must run Triton's own pass in its place)
// with a one-line reason. The remarks stay (they say the same to people);
// this is what programs read (the C API: tmfma_run_pipeline_ex; Python:
// native.run_pipeline_full).
//
// A pass opens a PassOutcomeScope at the start of runOnOperation and says
// what happened; the scope records it when the pass returns. A collector
// (PassOutcomeCollector, installed by the C API around one pipeline run on
// its thread) keeps the outcome of every pass that succeeded, in order; a
// pass that fails records nothing. Without a collector (mfma-opt) nothing is
// kept.
//
//===----------------------------------------------------------------------===//
#ifndef TRITONMFMA_PASSOUTCOME_H
#define TRITONMFMA_PASSOUTCOME_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::triton_mfma {

enum class PassStatus { Applied, Unchanged, Declined };
/// "applied", "unchanged", "declined".
llvm::StringRef stringifyPassStatus(PassStatus status);

struct PassOutcome {
  std::string pass; ///< the pass argument, e.g. "mfma-stream-pipeline"
  PassStatus status = PassStatus::Unchanged;
  std::string reason; ///< one line
};

/// Keeps the outcomes of the passes run on this thread while it lives.
class PassOutcomeCollector {
public:
  PassOutcomeCollector();
  ~PassOutcomeCollector();
  PassOutcomeCollector(const PassOutcomeCollector &) = delete;
  PassOutcomeCollector &operator=(const PassOutcomeCollector &) = delete;

  /// An instrumentation for `pm` that commits each pass's outcome when the
  /// pass succeeds and drops it when it fails.
  void instrument(PassManager &pm);
  const std::vector<PassOutcome> &getOutcomes() const { return outcomes; }
  /// "<pass>\t<status>\t<reason>\n" per outcome.
  std::string str() const;

  // Used by the scope and the instrumentation.
  void setPending(PassOutcome outcome) { pending = std::move(outcome); }
  void commitPending();
  void dropPending() { pending.reset(); }

private:
  PassOutcomeCollector *previous;
  std::vector<PassOutcome> outcomes;
  std::optional<PassOutcome> pending;
};

/// The outcome of one run of `pass`, recorded when the scope ends (unchanged
/// with `reason` unless said otherwise).
class PassOutcomeScope {
public:
  PassOutcomeScope(const Pass &pass, const llvm::Twine &reason);
  ~PassOutcomeScope();
  PassOutcomeScope(const PassOutcomeScope &) = delete;
  PassOutcomeScope &operator=(const PassOutcomeScope &) = delete;

  void applied(const llvm::Twine &reason) { set(PassStatus::Applied, reason); }
  void unchanged(const llvm::Twine &reason) {
    set(PassStatus::Unchanged, reason);
  }
  void declined(const llvm::Twine &reason) {
    set(PassStatus::Declined, reason);
  }
  PassStatus getStatus() const { return status; }

private:
  void set(PassStatus s, const llvm::Twine &r);
  std::string pass;
  PassStatus status = PassStatus::Unchanged;
  std::string reason;
};

} // namespace mlir::triton_mfma

#endif // TRITONMFMA_PASSOUTCOME_H
