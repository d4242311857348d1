-- Round 10 (issue 13): sheared tiles (shear = Q bytes, gen/tp_shear.c). On
-- interior tiles off alignment each output row goes out in windows aligned
-- to Q bytes, and tile rows start tm - Q/elem rows apart, so that no sector
-- inside an output row is written by two blocks. Round 9's best shapes with
-- Q = 32 (a sector) and some with Q = 64 or 16, against round 9's kernels.
--   ptxpose gen --out build/tune lab/candidates/2026-11-23-sheared-tiles.lua
local round = 10
local function c(elem, tm, tn, vec, threads, shear)
  local name = string.format("r%d_b%d_t%dx%d_v%d_%d_q%d", round, elem, tm, tn, vec, threads, shear)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, vec = vec, smem = "swizzle", group = 8, wide_realign = true,
    shear = shear })
end
c(16, 256, 32, 4, 256, 32); c(16, 256, 32, 4, 256, 64); c(16, 256, 32, 4, 256, 16)
c(16, 128, 64, 4, 256, 32); c(16, 256, 64, 4, 512, 32); c(16, 256, 64, 8, 256, 32)
c(16, 256, 32, 8, 128, 32)
c(8, 256, 64, 8, 256, 32); c(8, 256, 64, 8, 256, 64); c(8, 256, 64, 8, 256, 16)
c(8, 256, 128, 8, 512, 32); c(8, 256, 64, 16, 64, 32); c(8, 256, 128, 16, 128, 32)
c(8, 128, 64, 8, 128, 32)
-- Round 11: around round 10's winners (halves 256x64 with 16-byte granules
-- and 128x64 with 8-byte ones, Q = 32; bytes 256x64 with 8-byte granules,
-- Q = 16).
round = 11
c(16, 256, 64, 8, 256, 16); c(16, 256, 64, 8, 256, 64); c(16, 128, 64, 8, 128, 32)
c(16, 128, 64, 8, 128, 16); c(16, 128, 128, 8, 256, 32)
c(16, 128, 64, 4, 256, 16)
c(8, 256, 64, 8, 256, 8); c(8, 256, 128, 8, 256, 16); c(8, 256, 32, 8, 128, 16)
c(8, 128, 64, 8, 128, 16); c(8, 128, 128, 8, 256, 16)
