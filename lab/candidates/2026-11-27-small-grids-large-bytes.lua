-- Round 14 (issue 22 items 1 and 4): tiles for grids that do not fill the
-- GPU (the small set, 256 KB to 32 MB a matrix, every width), and 1-byte
-- tiles with 256-byte row pieces at two or more blocks an SM (large bytes).
-- Timed beside the committed kernels by `bash lab/gpu-session.sh small-grids`
-- (lab/TUNING.md, "Round 14").
--   ptxpose gen --out build/round14 lab/candidates/2026-11-27-small-grids-large-bytes.lua
--
-- Names read r14<s|l>_b<elem>_t<TM>x<TN>_v<vec>_<threads>_<smem>_g<group>[_r<max_regs>]:
-- r14s_ for the small set (timed on its 50 shapes with the peers), r14l_
-- for large bytes (timed on 8192^2 to 32768x8192).
local function c(set, elem, tm, tn, vec, threads, smem, group, max_regs, dyn)
  local name = string.format("r14%s_b%d_t%dx%d_v%d_%d_%s_g%d%s", set, elem, tm, tn, vec, threads,
    smem == "padded" and "p" or "s", group or 0, max_regs and ("_r" .. max_regs) or "")
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, vec = vec, smem = smem, group = group, max_regs = max_regs,
    dyn_smem = dyn })
end

-- Small matrices: Triton's winners there are 32x32/w4 (every width from
-- 256 KB), 64x64/w4-w8 and 64x128/w8 (bytes, 1:8 halves); our best are
-- 128x128 (bytes), 64x128 (halves) and 32x32 padded one element an access
-- (triton_32x32, words and doubles). So: smaller tiles (32x32, 32x64,
-- 64x32, 64x64), 64 or 128 threads, half-width vectors (more accesses a
-- warp in flight for the same tile), no grouping (few tiles: every block
-- resident at once), registers capped for more blocks an SM.
-- {elem, TM, TN, vec, threads, smem, group, max_regs}
local small = {
  {8, 32, 32, 4, 64, "swizzle"}, {8, 32, 64, 4, 128, "swizzle"},
  {8, 32, 64, 8, 32, "swizzle"}, {8, 64, 32, 8, 32, "swizzle"},
  {8, 64, 64, 8, 64, "swizzle"}, {8, 64, 64, 4, 128, "swizzle"}, {8, 64, 64, 4, 256, "swizzle"},
  {8, 64, 128, 8, 128, "swizzle"}, {8, 128, 64, 8, 128, "swizzle"}, {8, 64, 128, 4, 256, "swizzle"},
  {8, 64, 128, 8, 128, "swizzle", 0, 64},

  {16, 32, 32, 2, 128, "swizzle"}, {16, 32, 32, 4, 64, "swizzle"}, {16, 32, 64, 4, 128, "swizzle"},
  {16, 64, 32, 4, 128, "swizzle"}, {16, 64, 64, 4, 128, "swizzle"}, {16, 64, 64, 2, 256, "swizzle"},
  {16, 64, 64, 8, 64, "swizzle"}, {16, 64, 128, 4, 128, "swizzle"}, {16, 64, 128, 2, 256, "swizzle"},
  {16, 128, 64, 4, 256, "swizzle"},

  {32, 32, 32, 4, 64, "swizzle"}, {32, 32, 32, 2, 128, "swizzle"}, {32, 64, 32, 4, 128, "swizzle"},
  {32, 32, 32, 1, 128, "swizzle"}, {32, 32, 64, 2, 128, "swizzle"}, {32, 64, 32, 2, 128, "swizzle"},
  {32, 32, 64, 4, 128, "swizzle"}, {32, 64, 64, 2, 256, "swizzle"}, {32, 64, 64, 4, 128, "swizzle"},
  {32, 64, 64, 2, 128, "padded"},

  {64, 32, 32, 2, 128, "swizzle"}, {64, 32, 32, 1, 128, "swizzle"}, {64, 32, 32, 2, 64, "swizzle"},
  {64, 16, 32, 2, 64, "swizzle"}, {64, 32, 16, 2, 64, "swizzle"}, {64, 32, 64, 2, 128, "swizzle"},
  {64, 64, 32, 2, 128, "swizzle"}, {64, 32, 32, 1, 128, "padded"},

  {128, 16, 16, 1, 64, "swizzle"}, {128, 16, 32, 1, 128, "swizzle"}, {128, 32, 16, 1, 64, "swizzle"},
  {128, 32, 32, 1, 128, "swizzle"},
}
for _, v in ipairs(small) do c("s", v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]) end

-- Large bytes: fast_b8 (128x128, 16-byte accesses, 64 threads, 160
-- registers: 6 blocks, 12 warps an SM) levels off at 90.5-93% of the copy
-- on the H200 where fast_b16 (256-byte row pieces, 16 warps) reaches 97-100%;
-- fast_v8_b8 (128x128, 8-byte accesses, 256 threads, 64 registers: 32 warps)
-- is within 1.5% of it. These give bytes 256-byte row pieces on the input
-- side (128x256), the output side (256x128) or both (256x256, dynamic
-- shared memory) at 12 warps an SM (16-byte accesses, 3 blocks) and at 32
-- (8-byte accesses, 64 bytes and 64 registers a thread), to tell the pieces
-- from the warps; and fast_b8's tile at 32 warps with 4-byte accesses and
-- fast_v8_b8's with fast_b8's block order. Every register cap is the
-- lowest at which ptxas spills nothing (lower ones spill: the per-byte
-- load paths of misaligned and edge tiles hold many loads in flight).
-- {TM, TN, vec, threads, group, max_regs, dyn_smem}
local large = {
  {128, 256, 8, 512, 8, 64}, {256, 128, 8, 512, 8, 64}, {128, 256, 8, 512, 16, 64},
  {256, 256, 8, 1024, 8, 64, true},
  {128, 256, 16, 128, 8, 144}, {256, 128, 16, 128, 8, 144},
  {128, 128, 4, 512, 8, 64}, {128, 128, 8, 256, 8, 64},
}
for _, v in ipairs(large) do c("l", 8, v[1], v[2], v[3], v[4], "swizzle", v[5], v[6], v[7]) end
