local function c(elem, tm, tn, vec, smem, threads, group)
  local name = string.format("tune_b%d_t%dx%d_v%d_%s_%d_g%d", elem, tm, tn, vec, smem, threads, group)
  ptx.write(name .. ".ptx", ptx.transpose{ name = name, elem = elem, tile = {tm, tn}, threads = {32, threads // 32},
    vec = vec, smem = smem, group = group })
end
c(16, 128, 64, 4, "swizzle", 256, 8); c(16, 128, 32, 4, "swizzle", 128, 8); c(16, 64, 64, 4, "swizzle", 256, 8)
c(16, 128, 64, 2, "swizzle", 256, 8); c(16, 256, 32, 2, "swizzle", 256, 8); c(16, 128, 128, 4, "swizzle", 256, 8)
c(16, 128, 64, 8, "swizzle", 128, 8); c(16, 128, 32, 2, "padded", 256, 8)
c(8, 128, 64, 8, "swizzle", 128, 8); c(8, 128, 128, 8, "swizzle", 256, 8); c(8, 256, 64, 4, "swizzle", 256, 8)
c(8, 128, 128, 4, "swizzle", 256, 8); c(8, 128, 64, 4, "padded", 256, 8); c(8, 128, 128, 16, "swizzle", 64, 8)
c(8, 64, 64, 4, "swizzle", 128, 8)
