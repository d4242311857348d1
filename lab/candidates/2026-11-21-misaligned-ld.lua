local function c(elem, tm, tn, vec, smem, threads, group)
  local tx = 32
  local name = string.format("tune_b%d_t%dx%d_v%d_%s_%d_g%d", elem, tm, tn, vec, smem, threads, group)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn}, threads = {tx, threads // tx},
    vec = vec, smem = smem, group = group })
end
c(8, 256, 64, 4, "swizzle", 256, 16); c(8, 256, 32, 4, "swizzle", 256, 16); c(8, 128, 32, 4, "swizzle", 256, 16)
c(8, 256, 64, 4, "swizzle", 512, 16); c(8, 128, 64, 4, "swizzle", 256, 8)
c(16, 256, 32, 2, "swizzle", 256, 16); c(16, 256, 64, 2, "swizzle", 512, 16); c(16, 128, 32, 2, "swizzle", 256, 8)
c(32, 256, 32, 1, "padded", 256, 16); c(32, 256, 32, 1, "padded", 512, 16); c(32, 128, 32, 1, "padded", 256, 8)
c(32, 128, 32, 1, "padded", 256, 32); c(32, 256, 16, 1, "padded", 256, 16)
c(64, 128, 32, 1, "padded", 512, 8); c(64, 256, 16, 1, "padded", 256, 16)
c(128, 128, 16, 1, "padded", 512, 16); c(128, 64, 32, 1, "padded", 512, 8); 
