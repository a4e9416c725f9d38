"""Example kernels: the corpus the demo, the bridge tests and the benches compile.

Each kernel is an ordinary @triton.jit function. `CORPUS` lists the configurations that are
compiled (signature + constexprs); the names are stable so tests and benches can refer to them.
"""
import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _splitk_tile(a_ptr, w_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """Program (n, k-split, m) of a split-K GEMM: its rows, its columns and its partial sum."""
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    pid_m = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - (k * SPLIT_K + pid_k) * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (tl.arange(0, BLOCK_K)[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(tl.arange(0, BLOCK_K)[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        w_ptrs += BLOCK_K * SPLIT_K * stride_wk
    return rm, rn, acc


@triton.jit
def splitk_gemm(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn, stride_cm, stride_cn,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """Split-K decode GEMM: program (n, k-split, m); partial sums are combined with atomics."""
    rm, rn, acc = _splitk_tile(a_ptr, w_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn,
                               BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.atomic_add(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, sm_scale, N_CTX,
             stride_qh, stride_qm, stride_kh, stride_kn, stride_vh, stride_vn, stride_oh, stride_om,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):
    """Flash-attention forward (one head per program along axis 1); N_CTX a multiple of BLOCK_N."""
    start_m = tl.program_id(0)
    off_h = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + off_h * stride_qh + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        kt = tl.load(k_ptr + off_h * stride_kh + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, kt)
        if CAUSAL:
            qk = tl.where(offs_m[:, None] >= (start_n + offs_n)[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + off_h * stride_vh + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + off_h * stride_oh + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(o_ptr.dtype.element_ty),
             mask=offs_m[:, None] < N_CTX)


@triton.jit
def softmax(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
    x = x - tl.max(x, 0)
    num = tl.exp(x)
    tl.store(y_ptr + row * stride_y + cols, (num / tl.sum(num, 0)).to(y_ptr.dtype.element_ty), mask=cols < n_cols)


@triton.jit
def layernorm(x_ptr, y_ptr, w_ptr, b_ptr, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, 0) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(xc * xc, 0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, (xc * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, stride, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    acc = tl.zeros([BLOCK_R], dtype=tl.float32)
    for c in range(0, n_cols, BLOCK_C):
        cols = c + tl.arange(0, BLOCK_C)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :],
                    mask=(rows[:, None] < n_rows) & (cols[None, :] < n_cols), other=0.0)
        acc += tl.sum(x.to(tl.float32), 1)
    tl.store(out_ptr + rows, acc, mask=rows < n_rows)


@triton.jit
def masked_relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.where(x > 0, x, x * 0.01), mask=offs < n)


@triton.jit
def scale_if(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    """Data-dependent branch: becomes scf.if."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    if alpha > 1.0:
        x = x * alpha
    else:
        x = x + alpha
    tl.store(y_ptr + offs, x, mask=offs < n)


@triton.jit
def hinted_copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    """Alignment hints and assumptions: tl.assume, tl.multiple_of, tl.max_contiguous."""
    tl.assume(n > 0)
    tl.assume(n % 16 == 0)
    pid = tl.program_id(0)
    offs = tl.max_contiguous(tl.multiple_of(pid * BLOCK + tl.arange(0, BLOCK), BLOCK), BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(y_ptr + offs, x * 2, mask=offs < n)


def _gemm_sig(dt="*fp16", out="*fp16"):
    s = {"a_ptr": dt, "b_ptr": dt, "c_ptr": out}
    s.update({k: "i32" for k in ("M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn", "stride_cm",
                                  "stride_cn")})
    return s


def _splitk_sig():
    s = {"a_ptr": "*fp16", "w_ptr": "*fp16", "c_ptr": "*fp32"}
    s.update({k: "i32" for k in ("M", "N", "K", "stride_am", "stride_ak", "stride_wk", "stride_wn", "stride_cm",
                                  "stride_cn")})
    return s


def _attn_sig():
    s = {"q_ptr": "*fp16", "k_ptr": "*fp16", "v_ptr": "*fp16", "o_ptr": "*fp16", "sm_scale": "fp32", "N_CTX": "i32"}
    s.update({k: "i32" for k in ("stride_qh", "stride_qm", "stride_kh", "stride_kn", "stride_vh", "stride_vn",
                                  "stride_oh", "stride_om")})
    return s


def _attn(d, causal, bm=128, bn=64):
    return (attn_fwd, _attn_sig(), dict(BLOCK_M=bm, BLOCK_N=bn, HEAD_DIM=d, CAUSAL=causal))


# name -> (kernel, signature, constexprs). Compile options (num_warps, ...) use Triton's defaults.
CORPUS = {
    "gemm": (matmul, _gemm_sig(), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32)),
    "splitk_gemm": (splitk_gemm, _splitk_sig(), dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=64, SPLIT_K=4)),
    "attn_fwd_d64": _attn(64, False),
    "attn_fwd_d64_causal": _attn(64, True),
    "attn_fwd_d128": _attn(128, False),
    "attn_fwd_d128_causal": _attn(128, True),
    "softmax": (softmax, {"x_ptr": "*fp16", "y_ptr": "*fp16", "n_cols": "i32", "stride_x": "i32", "stride_y": "i32"},
                dict(BLOCK=1024)),
    "layernorm": (layernorm, {"x_ptr": "*fp16", "y_ptr": "*fp16", "w_ptr": "*fp32", "b_ptr": "*fp32", "n_cols": "i32",
                              "stride": "i32", "eps": "fp32"}, dict(BLOCK=1024)),
    "row_sum": (row_sum, {"x_ptr": "*fp16", "out_ptr": "*fp32", "n_rows": "i32", "n_cols": "i32", "stride": "i32"},
                dict(BLOCK_R=64, BLOCK_C=64)),
    "masked_relu": (masked_relu, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32"}, dict(BLOCK=1024)),
    "scale_if": (scale_if, {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "alpha": "fp32"}, dict(BLOCK=1024)),
    "hinted_copy": (hinted_copy, {"x_ptr": "*fp16", "y_ptr": "*fp16", "n": "i32"}, dict(BLOCK=1024)),
}

ARCHS = ("gfx90a", "gfx942", "gfx950")


# --- Grid order (issue 6): kernels whose program order decides L2 reuse -----------------------------------
# Split-K decode GEMM, deterministic (partial sums go to p_ptr[SPLIT_K, M, N], no atomics), so any program
# order gives bitwise-equal results. W is [K, N]; every M tile re-reads the same W tiles.


@triton.jit
def splitk_decode_slow(a_ptr, w_ptr, p_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn, stride_pk, stride_pm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """Grid (N tiles, SPLIT_K, M tiles): the M tiles that share a W tile are on the slowest axis."""
    pid_n = tl.program_id(0)
    pid_k = tl.program_id(1)
    pid_m = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - (k * SPLIT_K + pid_k) * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (tl.arange(0, BLOCK_K)[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(tl.arange(0, BLOCK_K)[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        w_ptrs += BLOCK_K * SPLIT_K * stride_wk
    p_ptrs = p_ptr + pid_k * stride_pk + rm[:, None] * stride_pm + rn[None, :]
    tl.store(p_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def splitk_decode_fast(a_ptr, w_ptr, p_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn, stride_pk, stride_pm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """The same GEMM on grid (M tiles, N tiles, SPLIT_K): programs sharing a W tile are adjacent already."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_left = K - (k * SPLIT_K + pid_k) * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (tl.arange(0, BLOCK_K)[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(tl.arange(0, BLOCK_K)[:, None] < k_left) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
        a_ptrs += BLOCK_K * SPLIT_K * stride_ak
        w_ptrs += BLOCK_K * SPLIT_K * stride_wk
    p_ptrs = p_ptr + pid_k * stride_pk + rm[:, None] * stride_pm + rn[None, :]
    tl.store(p_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def matmul_1d(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """GEMM on a 1-D grid, tiles in plain row-major order (no swizzle); M, N, K multiples of the blocks."""
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_1d_grouped(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    """matmul_1d with the hand-written GROUP_M swizzle of the Triton tutorial."""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))


@triton.jit
def matmul_1d_grouped_grid(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                           stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           GROUP_M: tl.constexpr):
    """matmul_1d_grouped with the number of tile rows taken from the grid (num_programs // num_pid_n) instead of
    cdiv(M, BLOCK_M): the same program order, written in the form mfma-grid-order emits. A control for benches:
    it separates what the order is worth from what ptxas makes of the surrounding code."""
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_m = tl.num_programs(0) // num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        acc += tl.dot(tl.load(a_ptrs), tl.load(b_ptrs))
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty))


@triton.jit
def splitk_store(a_ptr, w_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn, stride_cm, stride_cn,
                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, SPLIT_K: tl.constexpr):
    """splitk_gemm with a plain store (SPLIT_K = 1: a GEMM on a (N tiles, 1, M tiles) grid). At 128x128x32 tiles
    on cuda:90 it needs all 255 registers: without divisibility hints (2-byte loads) ptxas spills."""
    rm, rn, acc = _splitk_tile(a_ptr, w_ptr, M, N, K, stride_am, stride_ak, stride_wk, stride_wn,
                               BLOCK_M, BLOCK_N, BLOCK_K, SPLIT_K)
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

def _decode_sig():
    s = {"a_ptr": "*fp16", "w_ptr": "*fp16", "p_ptr": "*fp32"}
    s.update({k: "i32" for k in ("M", "N", "K", "stride_am", "stride_ak", "stride_wk", "stride_wn", "stride_pk",
                                  "stride_pm")})
    return s


DECODE_TILES = dict(BLOCK_M=32, BLOCK_N=64, BLOCK_K=64, SPLIT_K=8)
GEMM_1D_TILES = dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=64)
# name -> (kernel, signature, constexprs) of the grid-order kernels (not in CORPUS: the corpus is shared).
GRID_ORDER_KERNELS = {
    "splitk_decode_slow": (splitk_decode_slow, _decode_sig(), DECODE_TILES),
    "splitk_decode_fast": (splitk_decode_fast, _decode_sig(), DECODE_TILES),
    "matmul_1d": (matmul_1d, _gemm_sig(), GEMM_1D_TILES),
    "matmul_1d_grouped": (matmul_1d_grouped, _gemm_sig(), dict(GEMM_1D_TILES, GROUP_M=8)),
    "matmul_1d_grouped_grid": (matmul_1d_grouped_grid, _gemm_sig(), dict(GEMM_1D_TILES, GROUP_M=8)),
    "splitk_store": (splitk_store, _splitk_sig(), dict(BLOCK_M=128, BLOCK_N=128, BLOCK_K=32, SPLIT_K=1)),
}
