//===- PassOutcome.cpp - what each pass run did ---------------------------===//
//
// See include/TritonMFMA/PassOutcome.h. The collector is per thread: the C
// API runs each pipeline on one thread (its MLIRContext has threading
// disabled), and calls on other threads have their own.
//
//===----------------------------------------------------------------------===//

#include "TritonMFMA/PassOutcome.h"

#include "mlir/Pass/PassInstrumentation.h"

using namespace mlir;
using namespace mlir::triton_mfma;

namespace {
thread_local PassOutcomeCollector *currentCollector = nullptr;

/// Commits a pass's pending outcome after it succeeded, drops it after it
/// failed (or before it starts: a pass that records nothing has no line).
class OutcomeInstrumentation final : public PassInstrumentation {
public:
  explicit OutcomeInstrumentation(PassOutcomeCollector &c) : collector(c) {}
  void runBeforePass(Pass *, Operation *) override { collector.dropPending(); }
  void runAfterPass(Pass *, Operation *) override { collector.commitPending(); }
  void runAfterPassFailed(Pass *, Operation *) override {
    collector.dropPending();
  }

private:
  PassOutcomeCollector &collector;
};

/// One line: tabs and line breaks become spaces.
std::string oneLine(const llvm::Twine &text) {
  std::string s = text.str();
  for (char &c : s)
    if (c == '\t' || c == '\n' || c == '\r')
      c = ' ';
  return s;
}
} // namespace

llvm::StringRef mlir::triton_mfma::stringifyPassStatus(PassStatus status) {
  switch (status) {
  case PassStatus::Applied:
    return "applied";
  case PassStatus::Unchanged:
    return "unchanged";
  case PassStatus::Declined:
    return "declined";
  }
  return "unchanged";
}

PassOutcomeCollector::PassOutcomeCollector() : previous(currentCollector) {
  currentCollector = this;
}

PassOutcomeCollector::~PassOutcomeCollector() { currentCollector = previous; }

void PassOutcomeCollector::instrument(PassManager &pm) {
  pm.addInstrumentation(std::make_unique<OutcomeInstrumentation>(*this));
}

void PassOutcomeCollector::commitPending() {
  if (pending)
    outcomes.push_back(std::move(*pending));
  pending.reset();
}

std::string PassOutcomeCollector::str() const {
  std::string out;
  for (const PassOutcome &o : outcomes)
    out += o.pass + "\t" + stringifyPassStatus(o.status).str() + "\t" +
           o.reason + "\n";
  return out;
}

PassOutcomeScope::PassOutcomeScope(const Pass &pass, const llvm::Twine &reason)
    : pass(pass.getArgument().str()), reason(oneLine(reason)) {}

PassOutcomeScope::~PassOutcomeScope() {
  if (currentCollector)
    currentCollector->setPending({pass, status, reason});
}

void PassOutcomeScope::set(PassStatus s, const llvm::Twine &r) {
  status = s;
  reason = oneLine(r);
}
