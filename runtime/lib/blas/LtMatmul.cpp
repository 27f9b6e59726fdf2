//===- LtMatmul.cpp - a matmul graph's form run on cuBLASLt ---------------===//
//
// The form is row-major; cuBLASLt's layouts here are column-major. A
// row-major matrix read column-major is its transpose, so D = op(A) x op(B)
// is computed as D^T = op(B)^T x op(A)^T: cuBLASLt's first operand is B,
// its second A, and D^T is n x m, whose rows are D's columns, so the bias
// (one value per column of D) is cuBLASLt's per-row bias.
//
//===----------------------------------------------------------------------===//

#include "blas/LtMatmul.h"
#include "core/Context.h"
#include "graph/GraphValidation.h"

#include <cublasLt.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace cmrt;
using namespace cmrt::blas;
using graph::BlasLtForm;
using graph::LtActivation;
using graph::LtMatrix;
using graph::Status;

struct cmrt::blas::LtPlan {
  BlasLtForm form;
  cublasLtHandle_t handle = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t first = nullptr, second = nullptr, out = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> candidates;
  int selected = 0;
  std::mutex mutex; // the bias pointer is a descriptor attribute

  ~LtPlan() {
    if (first)
      cublasLtMatrixLayoutDestroy(first);
    if (second)
      cublasLtMatrixLayoutDestroy(second);
    if (out)
      cublasLtMatrixLayoutDestroy(out);
    if (desc)
      cublasLtMatmulDescDestroy(desc);
  }
};

namespace {

Status ltFailure(const char *call, cublasStatus_t status) {
  return {CMRT_ERROR_CUDA, std::string(call) +
                               " failed: " + cublasGetStatusName(status) +
                               " (" + cublasGetStatusString(status) + ")"};
}

#define LT_TRY(call)                                                           \
  do {                                                                         \
    if (cublasStatus_t s_ = (call); s_ != CUBLAS_STATUS_SUCCESS)               \
      return ltFailure(#call, s_);                                             \
  } while (0)

/// One library handle per device for the process (cuBLASLt handles are
/// thread-safe and hold no stream or workspace), kept until cmrtShutdown.
std::mutex handlesMutex;
std::map<int, cublasLtHandle_t> handles;

Status ltHandleFor(int device, cudaStream_t stream, cublasLtHandle_t &out) {
  std::lock_guard<std::mutex> lock(handlesMutex);
  if (auto it = handles.find(device); it != handles.end()) {
    out = it->second;
    return Status::success();
  }
  // Creating the handle allocates.
  CMRT_TRY(checkNotCapturing(stream, "creating cuBLASLt's library handle"));
  LT_TRY(cublasLtCreate(&out));
  handles.emplace(device, out);
  return Status::success();
}

cudaDataType_t cudaType(int64_t dataType) {
  switch (static_cast<graph::DataType>(dataType)) {
  case graph::DataType::Half:
    return CUDA_R_16F;
  case graph::DataType::BFloat16:
    return CUDA_R_16BF;
  default:
    return CUDA_R_32F;
  }
}

/// `m`'s column-major layout (see the file comment) and whether cuBLASLt
/// transposes it: a row-major r x c matrix is a column-major c x r one.
Status layoutOf(const LtMatrix &m, int64_t batch, cublasLtMatrixLayout_t &out,
                bool &transposed) {
  transposed = m.columnMajor;
  uint64_t rows = m.columnMajor ? m.rows : m.cols;
  uint64_t cols = m.columnMajor ? m.cols : m.rows;
  LT_TRY(
      cublasLtMatrixLayoutCreate(&out, cudaType(m.dataType), rows, cols, m.ld));
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    LT_TRY(cublasLtMatrixLayoutSetAttribute(
        out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
    int64_t stride = m.batchStride;
    LT_TRY(cublasLtMatrixLayoutSetAttribute(
        out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
        sizeof(stride)));
  }
  return Status::success();
}

cublasLtEpilogue_t epilogueOf(const BlasLtForm &f) {
  bool bias = f.biasUid != 0;
  switch (f.activation) {
  case LtActivation::Relu:
    return bias ? CUBLASLT_EPILOGUE_RELU_BIAS : CUBLASLT_EPILOGUE_RELU;
  case LtActivation::GeluTanh:
    return bias ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_GELU;
  case LtActivation::None:
    break;
  }
  return bias ? CUBLASLT_EPILOGUE_BIAS : CUBLASLT_EPILOGUE_DEFAULT;
}

template <typename T>
Status setPreference(cublasLtMatmulPreference_t pref,
                     cublasLtMatmulPreferenceAttributes_t attr, T value) {
  LT_TRY(
      cublasLtMatmulPreferenceSetAttribute(pref, attr, &value, sizeof(value)));
  return Status::success();
}

/// The heuristics' candidates for `plan`'s descriptors.
Status candidatesFor(LtPlan &plan, int maxCandidates,
                     int64_t maxWorkspaceBytes) {
  cublasLtMatmulPreference_t pref = nullptr;
  LT_TRY(cublasLtMatmulPreferenceCreate(&pref));
  struct Release {
    cublasLtMatmulPreference_t p;
    ~Release() { cublasLtMatmulPreferenceDestroy(p); }
  } release{pref};
  const BlasLtForm &f = plan.form;
  // The alignments the description promises; cuBLASLt assumes 256 bytes
  // otherwise. The bias's counts as C's here (it has no preference).
  auto align = [](int64_t bytes) {
    return static_cast<uint32_t>(std::max<int64_t>(bytes, 1));
  };
  CMRT_TRY(setPreference(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                         static_cast<uint64_t>(maxWorkspaceBytes)));
  CMRT_TRY(setPreference(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                         align(f.b.alignment)));
  CMRT_TRY(setPreference(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                         align(f.a.alignment)));
  uint32_t out = align(f.d.alignment);
  if (f.biasUid)
    out = std::min(out, align(f.biasAlignment));
  CMRT_TRY(
      setPreference(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, out));
  CMRT_TRY(
      setPreference(pref, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, out));
  // Split-K partial sums stay in fp32, never rounded to f16/bf16 between.
  CMRT_TRY(setPreference(
      pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK,
      static_cast<uint32_t>(CUBLASLT_REDUCTION_SCHEME_MASK &
                            ~CUBLASLT_REDUCTION_SCHEME_OUTPUT_TYPE)));
  plan.candidates.resize(static_cast<size_t>(std::max(maxCandidates, 1)));
  int returned = 0;
  LT_TRY(cublasLtMatmulAlgoGetHeuristic(
      plan.handle, plan.desc, plan.first, plan.second, plan.out, plan.out, pref,
      static_cast<int>(plan.candidates.size()), plan.candidates.data(),
      &returned));
  plan.candidates.resize(static_cast<size_t>(returned));
  plan.candidates.erase(
      std::remove_if(plan.candidates.begin(), plan.candidates.end(),
                     [](const cublasLtMatmulHeuristicResult_t &r) {
                       return r.state != CUBLAS_STATUS_SUCCESS;
                     }),
      plan.candidates.end());
  if (plan.candidates.empty())
    return {CMRT_ERROR_NOT_SUPPORTED,
            "cuBLASLt's heuristics have no algorithm for " +
                graph::describeBlasLtForm(f)};
  return Status::success();
}

} // namespace

Status cmrt::blas::buildLtPlan(int device, cudaStream_t stream,
                               const BlasLtForm &form, int maxCandidates,
                               int64_t maxWorkspaceBytes,
                               std::shared_ptr<LtPlan> &out) {
  auto plan = std::make_shared<LtPlan>();
  plan->form = form;
  CMRT_TRY(ltHandleFor(device, stream, plan->handle));
  LT_TRY(cublasLtMatmulDescCreate(&plan->desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  bool transFirst = false, transSecond = false;
  CMRT_TRY(layoutOf(form.b, form.batch, plan->first, transFirst));
  CMRT_TRY(layoutOf(form.a, form.batch, plan->second, transSecond));
  bool unused = false;
  CMRT_TRY(layoutOf(form.d, form.batch, plan->out, unused));
  cublasOperation_t opFirst = transFirst ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opSecond = transSecond ? CUBLAS_OP_T : CUBLAS_OP_N;
  LT_TRY(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSA,
                                        &opFirst, sizeof(opFirst)));
  LT_TRY(cublasLtMatmulDescSetAttribute(plan->desc, CUBLASLT_MATMUL_DESC_TRANSB,
                                        &opSecond, sizeof(opSecond)));
  cublasLtEpilogue_t epilogue = epilogueOf(form);
  LT_TRY(cublasLtMatmulDescSetAttribute(
      plan->desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  CMRT_TRY(candidatesFor(*plan, maxCandidates, maxWorkspaceBytes));
  out = std::move(plan);
  return Status::success();
}

int cmrt::blas::ltCandidateCount(const LtPlan &plan) {
  return static_cast<int>(plan.candidates.size());
}

void cmrt::blas::selectLtCandidate(LtPlan &plan, int index) {
  plan.selected = std::clamp(index, 0, ltCandidateCount(plan) - 1);
}

int64_t cmrt::blas::ltWorkspaceBytes(const LtPlan &plan) {
  return static_cast<int64_t>(
      plan.candidates[static_cast<size_t>(plan.selected)].workspaceSize);
}

std::string cmrt::blas::ltCandidateName(const LtPlan &plan) {
  const cublasLtMatmulAlgo_t &algo =
      plan.candidates[static_cast<size_t>(plan.selected)].algo;
  int32_t id = -1, splitK = 1;
  uint32_t tile = 0, stages = 0;
  size_t written = 0;
  cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_ID, &id,
                                       sizeof(id), &written);
  cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_TILE_ID,
                                       &tile, sizeof(tile), &written);
  cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_STAGES_ID,
                                       &stages, sizeof(stages), &written);
  cublasLtMatmulAlgoConfigGetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM,
                                       &splitK, sizeof(splitK), &written);
  return "cublasLt algo " + std::to_string(id) + " tile " +
         std::to_string(tile) + " stages " + std::to_string(stages) +
         " splitK " + std::to_string(splitK);
}

const BlasLtForm &cmrt::blas::ltForm(const LtPlan &plan) { return plan.form; }

Status cmrt::blas::runLtPlan(LtPlan &plan, cudaStream_t stream, const void *a,
                             const void *b, const void *bias, void *d,
                             void *workspace) {
  if (!a || !b || !d || (plan.form.biasUid && !bias))
    return {CMRT_ERROR_INVALID_ARGUMENT,
            "a cuBLASLt matmul expects a device pointer for each operand, "
            "but got null"};
  std::lock_guard<std::mutex> lock(plan.mutex);
  if (plan.form.biasUid)
    LT_TRY(cublasLtMatmulDescSetAttribute(
        plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias)));
  const cublasLtMatmulHeuristicResult_t &chosen =
      plan.candidates[static_cast<size_t>(plan.selected)];
  float alpha = static_cast<float>(plan.form.alpha), beta = 0.0f;
  LT_TRY(cublasLtMatmul(plan.handle, plan.desc, &alpha, b, plan.first, a,
                        plan.second, &beta, d, plan.out, d, plan.out,
                        &chosen.algo, workspace, chosen.workspaceSize, stream));
  return Status::success();
}

void cmrt::blas::releaseLtHandles() {
  std::lock_guard<std::mutex> lock(handlesMutex);
  for (auto &[device, handle] : handles)
    cublasLtDestroy(handle);
  handles.clear();
}
