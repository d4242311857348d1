-- Round 8 (issue 13): whole-granule realignment (wide_realign) for 1- and
-- 2-byte elements on rows off alignment, against round 7's best shapes;
-- round 9 (below, after the head of a row went out in at most four aligned
-- pieces): tall tiles (256 input rows), which round 8 found best.
--   ptxpose gen --out build/tune lab/candidates/2026-11-23-realign-and-tall-tiles.lua
local round = 8
local function c(elem, tm, tn, vec, threads, group)
  local name = string.format("r%d_b%d_t%dx%d_v%d_%d_g%d", round, elem, tm, tn, vec, threads, group)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, vec = vec, smem = "swizzle", group = group, wide_realign = true })
end
c(16, 128, 64, 4, 256, 8); c(16, 128, 64, 8, 128, 8); c(16, 128, 128, 8, 256, 8)
c(16, 128, 128, 4, 256, 8); c(16, 64, 128, 8, 128, 8); c(16, 256, 64, 8, 256, 8)
c(8, 128, 64, 8, 128, 8); c(8, 128, 128, 8, 256, 8); c(8, 128, 128, 16, 64, 8)
c(8, 256, 64, 8, 256, 8); c(8, 64, 128, 8, 128, 8); c(8, 256, 128, 8, 512, 8)
round = 9
c(16, 256, 64, 8, 256, 8); c(16, 256, 64, 8, 256, 16); c(16, 256, 32, 8, 128, 8)
c(16, 256, 64, 4, 512, 8); c(16, 256, 32, 4, 256, 8)
c(8, 256, 64, 8, 256, 8); c(8, 256, 64, 8, 256, 16); c(8, 256, 128, 16, 128, 8)
c(8, 256, 128, 8, 512, 8); c(8, 256, 64, 16, 64, 8); c(8, 256, 32, 8, 128, 8)
