-- Tuning candidates for every element width: the shapes of tile, block and
-- access that bench/TUNING.md reasons about. Not committed as PTX: generate
-- them into a scratch folder and time them with ptxpose bench.
--
--   ptxpose gen --out build/tune scripts/tune.lua
--   ptxpose bench --out-dir build/tune-results build/tune/*.ptx
--
-- Names read t<TM>x<TN>_v<vec>_<smem>_<threads>[_nc][_cs].

local function candidate(elem, tm, tn, vec, smem, threads, hints)
  hints = hints or {}
  local tx = math.min(threads, 32)
  local name = string.format("tune_b%d_t%dx%d_v%d_%s_%d%s%s%s", elem, tm, tn, vec, smem,
                             threads, hints.ld_nc and "_nc" or "", hints.st_cs and "_cs" or "",
                             hints.group and ("_g" .. hints.group) or "")
  local text = ptx.transpose{
    name = name, elem = elem, tile = {tm, tn}, threads = {tx, threads // tx},
    vec = vec, smem = smem, ld_nc = hints.ld_nc, st_cs = hints.st_cs, group = hints.group,
  }
  ptx.write(name .. ".ptx", text)
end

local both = { ld_nc = true, st_cs = true }
local g16, g32 = { group = 16 }, { group = 32 }
local per_width = {
  [8] = {
    {128, 128, 16, "swizzle", 64}, {128, 64, 16, "swizzle", 32}, {64, 128, 16, "swizzle", 32},
    {128, 128, 8, "swizzle", 256}, {64, 128, 8, "swizzle", 128}, {64, 64, 8, "swizzle", 64},
    {128, 128, 16, "swizzle", 64, both}, {128, 128, 8, "swizzle", 256, both},
    {128, 128, 8, "swizzle", 256, g16}, {128, 128, 8, "swizzle", 256, g32},
  },
  [16] = {
    {64, 64, 8, "swizzle", 64}, {128, 64, 8, "swizzle", 128}, {64, 128, 8, "swizzle", 128},
    {128, 128, 8, "swizzle", 256}, {64, 64, 4, "swizzle", 256}, {64, 128, 4, "swizzle", 256},
    {128, 64, 8, "swizzle", 128, both}, {64, 128, 4, "swizzle", 256, both},
    {128, 128, 8, "swizzle", 256, g16}, {128, 128, 8, "swizzle", 256, g32},
  },
  [32] = {
    {32, 128, 4, "swizzle", 256}, {64, 64, 4, "swizzle", 256}, {64, 128, 4, "swizzle", 256},
    {64, 64, 4, "swizzle", 128}, {128, 64, 4, "swizzle", 256}, {32, 32, 1, "padded", 256},
    {64, 64, 4, "swizzle", 256, both}, {64, 128, 4, "swizzle", 256, both},
    {64, 128, 4, "swizzle", 256, g16}, {64, 128, 4, "swizzle", 256, g32},
    {64, 64, 4, "swizzle", 128, g16}, {64, 64, 4, "swizzle", 128, g32},
  },
  [64] = {
    {32, 32, 2, "swizzle", 256}, {32, 64, 2, "swizzle", 256}, {64, 64, 2, "swizzle", 256},
    {64, 32, 2, "swizzle", 256}, {32, 64, 2, "swizzle", 128},
    {32, 64, 2, "swizzle", 256, both}, {64, 64, 2, "swizzle", 256, both},
    {32, 64, 2, "swizzle", 256, g16}, {32, 64, 2, "swizzle", 256, g32},
    {64, 32, 2, "swizzle", 256, g16}, {64, 32, 2, "swizzle", 256, g32},
  },
  [128] = {
    {32, 32, 1, "swizzle", 256}, {16, 32, 1, "swizzle", 128}, {32, 16, 1, "swizzle", 128},
    {64, 32, 1, "swizzle", 256}, {32, 32, 1, "padded", 256},
    {32, 32, 1, "swizzle", 256, both}, {64, 32, 1, "swizzle", 256, both},
    {32, 32, 1, "swizzle", 256, g16}, {32, 32, 1, "swizzle", 256, g32},
  },
}

-- Narrow accesses for leading dimensions that rule out 16-byte vectors
-- (8191x8193, 12345x6789): one element (or one word of packed ones) per
-- access, consecutive threads on consecutive elements.
local narrow = {
  [8] = { {64, 64, 4, "padded", 256, g16}, {32, 128, 4, "padded", 256, g16}, {64, 64, 4, "swizzle", 256, g16},
          {128, 64, 4, "swizzle", 256, g16}, {128, 128, 4, "swizzle", 512, g16}, {128, 64, 4, "swizzle", 512, g16} },
  [16] = { {64, 64, 2, "swizzle", 256, g16}, {32, 64, 2, "padded", 256, g16}, {64, 64, 2, "padded", 256, g16},
           {128, 64, 2, "swizzle", 256, g16}, {128, 64, 2, "swizzle", 512, g16}, {128, 32, 2, "swizzle", 256, g16} },
  [32] = { {32, 32, 1, "padded", 256, g16}, {64, 32, 1, "padded", 256, g16}, {32, 64, 1, "padded", 256, g16},
           {64, 64, 1, "padded", 256, g16}, {32, 32, 1, "padded", 128, g16}, {32, 32, 1, "padded", 256, g32},
           {64, 64, 1, "padded", 512, g16}, {128, 32, 1, "padded", 256, g16}, {128, 32, 1, "padded", 512, g16},
           {128, 64, 1, "padded", 512, g16}, {64, 32, 1, "padded", 512, g16} },
  [64] = { {32, 32, 1, "padded", 256, g16}, {64, 32, 1, "padded", 256, g16}, {32, 64, 1, "padded", 256, g16},
           {32, 32, 1, "swizzle", 256, g16}, {128, 32, 1, "padded", 256, g16}, {64, 32, 1, "padded", 512, g16},
           {128, 32, 1, "padded", 512, g16} },
  [128] = { {64, 16, 1, "swizzle", 256, g16}, {64, 32, 1, "swizzle", 256, g16}, {64, 32, 1, "padded", 512, g16} },
}

for _, elem in ipairs{8, 16, 32, 64, 128} do
  for _, c in ipairs(per_width[elem]) do
    candidate(elem, c[1], c[2], c[3], c[4], c[5], c[6])
  end
  for _, c in ipairs(narrow[elem] or {}) do
    candidate(elem, c[1], c[2], c[3], c[4], c[5], c[6])
  end
end
