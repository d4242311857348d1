-- Issue 22 item 3, the register skinny kernels (gen/tp_skinny_reg.c):
-- candidates beside the committed ones (scripts/variants.lua: 256 threads,
-- one 16-byte granule a line and thread, tiles of 16 KB), timed with them,
-- every other skinny kernel and the peers by
-- `REG_CAND=1 bash lab/gpu-session.sh skinny-register`:
--   ptxpose gen --out build/skinnyreg lab/candidates/2026-11-27-skinny-register.lua
-- Two granules a line and thread (r2: twice the loads in flight, 32 KB
-- tiles, half the blocks), 128 threads (8 KB tiles: twice the blocks for a
-- 2^20-long problem) and 512 (32 KB, one block where two were). Names say
-- what differs: creg_<dir>_k<kmax>_t<threads>_r<repeats>_b<bits>.
local function c(dir, elem, kmax, threads, repeats)
  local name = string.format("creg_%s_k%d_t%d_r%d_b%d", dir, kmax, threads, repeats, elem)
  local es = elem // 8
  local long = threads // 32 * (32 // (kmax * es // 4)) * (16 // es) * repeats
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, family = "skinny_reg", elem = elem, skinny = dir,
    study = true, threads = {threads, 1}, tile = dir == "wide" and {kmax, long} or {long, kmax} })
end
for _, dir in ipairs{"wide", "tall"} do
  for _, elem in ipairs{8, 16} do
    for _, kmax in ipairs{16, 32} do
      c(dir, elem, kmax, 256, 2)
      c(dir, elem, kmax, 128, 1)
      c(dir, elem, kmax, 512, 1)
    end
  end
end
