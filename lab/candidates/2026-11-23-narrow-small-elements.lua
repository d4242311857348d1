-- Round 7 (issue 13): the narrow family's tile, block, access width and
-- group for 1- and 2-byte elements, re-timed with whole-program JIT (rounds
-- 1-6 had relocatable code, lab/TUNING.md "The JIT path") and CUDA graphs.
--   ptxpose gen --out build/tune lab/candidates/2026-11-23-narrow-small-elements.lua
local function c(elem, tm, tn, vec, threads, group, extra)
  extra = extra or {}
  local name = string.format("r7_b%d_t%dx%d_v%d_%d_g%d%s", elem, tm, tn, vec, threads, group,
                             extra.ld_nc and "_nc" or "")
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, vec = vec, smem = "swizzle", group = group, ld_nc = extra.ld_nc })
end
local nc = { ld_nc = true }
for _, elem in ipairs{8, 16} do
  c(elem, 128, 64, 4, 256, 8)          -- the committed narrow kernel's shape
  c(elem, 128, 128, 4, 256, 8); c(elem, 128, 128, 4, 512, 8); c(elem, 64, 128, 4, 256, 8)
  c(elem, 128, 64, 8, 128, 8); c(elem, 128, 128, 8, 256, 8); c(elem, 64, 64, 4, 128, 8)
  c(elem, 128, 64, 4, 256, 16); c(elem, 256, 64, 4, 512, 8); c(elem, 128, 64, 4, 256, 8, nc)
  c(elem, 128, 32, 4, 128, 8); c(elem, 64, 64, 8, 64, 8)
end
c(8, 128, 128, 16, 64, 8); c(8, 256, 128, 4, 512, 8)
