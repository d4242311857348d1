-- Tuning candidates for every element width: the shapes of tile, block and
-- access that lab/TUNING.md reasons about. Not committed as PTX: generate
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

-- The small-dimension family (gen/tp_skinny.c): K x N -> N x K ("wide") and
-- N x K -> K x N ("tall"), K set at run time up to kmax. lab/TUNING.md
-- says what each knob trades. Names read
-- tune_b<elem>_<wide|tall>_k<kmax>_kw<kw>_c<granules a stage>_s<stages>_<threads>.
-- Time them on K x 2^20 and 2^20 x K for K in 1, 2, 3, 4, 7, 8, 16, 33, 64:
--
--   ptxpose bench --out-dir build/tune-skinny --shapes 3x1048576,1048576x3,... build/tune/tune_*_wide_* ...
-- the register budgets at which ptxas, left alone, spills a few bytes
-- (on sm_80 or sm_90; checked by hand with ptxas -v, as tests/t0300 does
-- for ptx/)
local skinny_regs = {
  tune_b16_wide_k16_kw16_c128_s4_256 = 72, tune_b16_wide_k64_kw32_c16_s8_128 = 80,
  tune_b8_wide_k16_kw16_c64_s8_128 = 80, tune_b16_wide_k16_kw16_c64_s8_128 = 72,
  tune_b8_wide_k4_kw4_c256_s8_512 = 64, tune_b8_tall_k1_kw1_c256_s8_256 = 64,
}
local function skinny(elem, dir, k, kw, granules, stages, threads)
  local long = granules * 16 // (elem // 8) * stages
  local name = string.format("tune_b%d_%s_k%d_kw%d_c%d_s%d_%d", elem, dir, k, kw, granules, stages, threads)
  ptx.write(name .. ".ptx", ptx.transpose{
    name = name, elem = elem, skinny = dir, kw = kw, stages = stages, threads = {threads, 1},
    tile = dir == "wide" and {k, long} or {long, k}, max_regs = skinny_regs[name],
  })
end

-- {kmax, kw, granules a stage, stages, threads}: one lane along K for K = 1
-- (all lanes along the long side: row predicates uniform, byte scatters
-- 4-way), matched kmax for K = 2, 8 and 32, the committed shapes with half
-- and twice the stages (setup amortised over more or fewer bytes), and with
-- 128 and 512 threads (occupancy against bytes in flight a thread).
local skinny_candidates = {
  {1, 1, 256, 8, 256}, {2, 2, 256, 8, 256}, {8, 8, 128, 8, 256}, {32, 32, 32, 8, 256},
  {4, 4, 256, 4, 256}, {4, 4, 256, 16, 256}, {4, 4, 128, 8, 128}, {4, 4, 256, 8, 512},
  {16, 16, 128, 4, 256}, {16, 16, 64, 8, 128}, {64, 32, 32, 16, 256}, {64, 32, 16, 8, 128},
}
-- After the first timing on an H100 (lab/TUNING.md): at N = 2^20
-- the tiles above give a 2^20 x K problem 16 to 64 blocks, too few for 132
-- SMs; these take 512 to 8192 elements a tile and one or two stages.
local skinny_short = {
  {1, 1, 256, 1, 256}, {2, 2, 128, 1, 256}, {4, 4, 64, 1, 256}, {4, 4, 64, 2, 256},
  {4, 4, 32, 1, 128}, {4, 4, 128, 1, 256}, {8, 8, 32, 1, 256}, {8, 8, 64, 1, 256},
  {16, 16, 16, 1, 256}, {16, 16, 32, 1, 256}, {64, 32, 8, 1, 256}, {64, 32, 16, 1, 256},
}
for _, elem in ipairs{8, 16, 32, 64, 128} do
  for _, dir in ipairs{"wide", "tall"} do
    for _, c in ipairs(skinny_candidates) do skinny(elem, dir, c[1], c[2], c[3], c[4], c[5]) end
    for _, c in ipairs(skinny_short) do skinny(elem, dir, c[1], c[2], c[3], c[4], c[5]) end
  end
end
