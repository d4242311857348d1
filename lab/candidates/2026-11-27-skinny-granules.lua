-- Issue 22 item 3 (skinny 1- and 2-byte elements, K 9 to 64): candidates
-- beside the committed kmax 32 and packed kernels (scripts/variants.lua),
-- timed with them, the older skinny kernels and the peers by
-- `bash lab/gpu-session.sh skinny-granules`:
--   ptxpose gen --out build/skinny14 lab/candidates/2026-11-27-skinny-granules.lua
-- Longer tiles for kmax 64, 32 and 16 (granules: 16-byte granules a K line;
-- the emulated instructions per byte fall by a third from 32 to 64 granules,
-- but a 2^20-long problem gets fewer blocks), packed kmax 16 for K = 9..16,
-- and the tall packed byte kernel held to 128 registers (191 otherwise, 40
-- bytes spilled: does occupancy buy more than the spill costs?). Names say
-- what differs: c14_<dir>_k<kmax>[p]_w<kw>_g<granules>[_r<max_regs>]_b<bits>.
local function c(dir, elem, kmax, kw, granules, pack, regs)
  local name = string.format("c14_%s_k%d%s_w%d_g%d%s_b%d", dir, kmax, pack and "p" or "", kw, granules,
    regs and "_r" .. regs or "", elem)
  local long = granules * 16 // (elem // 8)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, skinny = dir, kw = kw, stages = 1,
    pack = pack, study = true, max_regs = regs, threads = {256, 1},
    tile = dir == "wide" and {kmax, long} or {long, kmax} })
end
for _, dir in ipairs{"wide", "tall"} do
  for _, elem in ipairs{8, 16} do
    c(dir, elem, 64, 32, 32, false, elem == 16 and dir == "wide" and 128 or nil)
    c(dir, elem, 32, 32, 32, false)
    c(dir, elem, 16, elem == 8 and 4 or 8, 64, true)
    c(dir, elem, 16, 16, 64, false)
  end
end
c("tall", 8, 32, 8, 32, true, 128)
-- Tall kernels with fewer lanes along K: kw 32 gives a warp's output store
-- 32 lines x 16 bytes, half a sector each; kw 8 gives 4 neighbouring
-- granules (64 bytes) of 8 lines, kw 16 two (a whole sector).
for _, elem in ipairs{8, 16} do
  c("tall", elem, 32, 8, 32, false)
  c("tall", elem, 32, 16, 64, false)
  c("tall", elem, 64, 16, elem == 8 and 16 or 32, false)
end
c("tall", 16, 64, 16, 32, true)
-- skinny_tall_k32_b8 held to 84 registers (106 otherwise; no spills): three
-- blocks an SM instead of two.
c("tall", 8, 32, 32, 64, false, 84)
