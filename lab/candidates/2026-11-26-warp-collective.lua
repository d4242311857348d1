-- Round 13 (issue 20): the warp-collective study families (gen/tp_warp.h)
-- in other tiles, threads and block orders than the committed study_*
-- kernels, timed beside them and the fast and narrow kernels of their width
-- by `bash lab/gpu-session.sh warp-study`.
--   ptxpose gen --out build/study lab/candidates/2026-11-26-warp-collective.lua
local function c(family, elem, tm, tn, threads, group)
  local name = string.format("r13_%s_b%d_t%dx%d_%d_g%d", family, elem, tm, tn, threads, group or 0)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, family = family, elem = elem, tile = {tm, tn},
    threads = {32, threads // 32}, group = group })
end
for _, f in ipairs{"movmatrix", "ldmatrix", "stmatrix"} do
  c(f, 16, 64, 64, 128); c(f, 16, 128, 64, 256); c(f, 16, 64, 128, 256); c(f, 16, 128, 128, 256)
  c(f, 16, 64, 64, 256, 16); c(f, 16, 128, 128, 256, 8)
end
c("shfl", 32, 32, 64, 128); c("shfl", 32, 64, 128, 256); c("shfl", 32, 128, 64, 256)
c("shfl", 32, 64, 64, 256, 16); c("shfl", 32, 64, 128, 256, 16)
