-- Round 12 (issue 13): 64 KB tiles in dynamic shared memory (dyn_smem),
-- for the large shapes (unsheared, against the fast family) and the odd
-- ones (sheared, against narrow_shear_*).
--   ptxpose gen --out build/tune12 lab/candidates/2026-11-23-dynamic-smem-64k.lua
local function c(elem, tm, tn, vec, threads, group, shear)
  local name = string.format("r12_b%d_t%dx%d_v%d_%d_g%d_q%d", elem, tm, tn, vec, threads, group, shear or 0)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, vec = vec, smem = "swizzle", group = group, dyn_smem = true,
    wide_realign = shear ~= nil or nil, shear = shear })
end
c(8, 256, 256, 16, 256, 8); c(8, 256, 256, 8, 512, 8)
c(16, 256, 128, 8, 256, 8); c(16, 128, 256, 8, 256, 16); c(16, 256, 128, 8, 512, 16)
c(32, 128, 128, 4, 256, 16); c(32, 256, 64, 4, 256, 16)
c(64, 128, 64, 2, 256, 16); c(64, 64, 128, 2, 256, 32)
c(8, 256, 256, 8, 512, 8, 16); c(16, 256, 128, 8, 256, 8, 32); c(16, 256, 128, 4, 512, 8, 16)
