-- The smallest harness that will do: counts checks, names the failures,
-- ends with the "N passed, N failed" line that scripts/test-all.sh greps.
-- The scripts run under Lua 5.1 to 5.5 and LuaJIT; what differs between
-- them is asked here.
local T = { passed = 0, failed = 0, skipped = {} }

-- "5.1", "5.2", "5.3", "5.4", "5.5" or "luajit".
T.lua = rawget(_G, "jit") and "luajit" or _VERSION:match("%d+%.%d+")
-- Whether numbers have an integer subtype (5.3 on); else integers are
-- doubles, exact to 2^53, and vrandom's ranges stop there.
T.ints = math.type ~= nil
T.maxint = T.ints and math.maxinteger or 2 ^ 53
T.minint = T.ints and math.mininteger or -2 ^ 53
T.unpack = table.unpack or unpack

-- math.type, or what it would say of a double-only Lua's number.
function T.type(x)
  if T.ints then return math.type(x) end
  if type(x) ~= "number" then return nil end
  return x == math.floor(x) and "integer" or "float"
end

-- loadfile with an environment: 5.1 has setfenv instead of the argument.
function T.loadfile(path, env)
  if not setfenv then return loadfile(path, "t", env) end
  local f = loadfile(path)
  return f and setfenv(f, env)
end

-- package.searchpath, which 5.1 lacks.
function T.searchpath(name, path)
  if package.searchpath then return package.searchpath(name, path) end
  for tpl in path:gmatch("[^;]+") do
    local f = io.open((tpl:gsub("%?", (name:gsub("%.", "/")))), "rb")
    if f then f:close() return (tpl:gsub("%?", (name:gsub("%.", "/")))) end
  end
  return nil
end

-- A command's output, and whether it exited 0 where the Lua can tell (5.1
-- and LuaJIT's close says nothing of the exit status).
function T.run(cmd)
  local p = io.popen(cmd .. " 2>&1")
  local out = p:read("*a")
  return out, p:close()
end

function T.check(ok, what)
  if ok then
    T.passed = T.passed + 1
  else
    T.failed = T.failed + 1
    print("FAIL: " .. what)
  end
  return ok
end

function T.eq(got, want, what)
  return T.check(got == want,
    ("%s: got %s, want %s"):format(what, tostring(got), tostring(want)))
end

-- An error message without the "file:line:" of the caller, which names a
-- different line for every call site.
function T.strip(msg)
  return (tostring(msg):gsub("^[^:]*:%d+: ", ""))
end

-- f must raise an error whose message contains the plain string want.
function T.raises(want, what, f, ...)
  local ok, msg = pcall(f, ...)
  return T.check(not ok and tostring(msg):find(want, 1, true) ~= nil,
    ("%s: want error %q, got %s"):format(what, want,
      ok and "no error" or tostring(msg)))
end

-- Pearson's chi-square of observed counts against a uniform expectation.
function T.chisq(counts, n)
  local total = 0
  for i = 1, n do total = total + (counts[i] or 0) end
  local e, x = total / n, 0
  for i = 1, n do
    local d = (counts[i] or 0) - e
    x = x + d * d / e
  end
  return x
end

-- A threshold far out in the tail (8 standard deviations and then some:
-- less than one run in a billion for df = 9) so that a test fails on
-- real bias, not on bad luck.
function T.chilimit(df)
  return df + 8 * math.sqrt(2 * df) + 20
end

-- The length of a loop that is no distribution check (those are sized
-- for their power: T.cells).  VRANDOM_TEST_SCALE (0 < s <= 1) shrinks it
-- where a run repeats the checks on another backend or emulated.  Never
-- below 50 a bucket.
T.scale = tonumber(os.getenv("VRANDOM_TEST_SCALE") or "") or 1
assert(T.scale > 0 and T.scale <= 1, "VRANDOM_TEST_SCALE: a number in (0, 1]")
function T.draws(n, k)
  return math.max(math.floor(n * T.scale), 50 * (k or 1))
end

-- k of n draws on one side of an even split: within 13 standard
-- deviations (sqrt(n)/2) of n/2, whatever T.draws made n.
function T.about_half(k, n)
  return (2 * k - n) ^ 2 < 169 * n
end

-- The statistics of the distribution tests, as test/stats.h has them for
-- C (its comment says why): n draws into k cells of known probability,
-- one cell's count more than z standard deviations from its mean fails;
-- z gives the check a false alarm of T.alpha, shared among the cells, and
-- n finds one cell drawn T.excess too often with power 0.999.
-- VRANDOM_TEST_SCALE shrinks n only down to that need, so it stays whole;
-- a sample below it fails the check.  VRANDOM_TEST_STATS_AT, where whole
-- samples cost too much, leaves the checks out, each named, and says
-- where they run at full power.
T.alpha, T.excess, T.want = 2e-8, 0.05, 0.999
T.stats_at = os.getenv("VRANDOM_TEST_STATS_AT")
if T.stats_at == "" then T.stats_at = nil end
T.left_out = {}

-- P(Z > z) for a standard normal Z: a continued fraction from 2 on, the
-- series of erf below.
function T.tail(z)
  assert(z == z, "T.tail of NaN")
  if z < 0 then return 1 - T.tail(-z) end
  if z >= 2 then
    local f = z
    for k = 80, 1, -1 do f = z + k / f end
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi) / f
  end
  local x = z / math.sqrt(2)
  local term, sum, n = x, x, 0
  repeat
    n = n + 1
    term = -term * x * x / n
    sum = sum + term / (2 * n + 1)
  until math.abs(term) < 1e-17
  return 0.5 - sum / math.sqrt(math.pi)
end

-- The z of upper tail q.
function T.zfor(q)
  local lo, hi = -10, 40
  for _ = 1, 200 do
    local mid = (lo + hi) / 2
    if T.tail(mid) > q then lo = mid else hi = mid end
  end
  return hi
end

function T.limit(k) return T.zfor(T.alpha / (2 * k)) end

-- The power against a cell of probability p drawn T.excess too often.
function T.power(p, z, n)
  local q = p * (1 + T.excess)
  return 1 - T.tail(((q - p) * math.sqrt(n) - z * math.sqrt(p * (1 - p))) / math.sqrt(q * (1 - q)))
end

-- The draws that power T.want needs against the cell of probability p.
function T.need(p, z)
  local q, zb = p * (1 + T.excess), T.zfor(1 - T.want)
  local s = (z * math.sqrt(p * (1 - p)) + zb * math.sqrt(q * (1 - q))) / (q - p)
  return math.ceil(s * s)
end

-- The sample of a check that needs n draws: VRANDOM_TEST_SCALE may
-- shrink it down to n, never below.
function T.sample(need)
  return math.max(math.floor(need * T.scale), need)
end

-- The end of a check's line: what the scale did to its sample.
function T.kept(n, need)
  if n < need or T.scale == 1 then return "" end
  return (" (VRANDOM_TEST_SCALE=%s: kept at %d draws, the power kept)"):format(T.scale, n)
end

-- Whether a check is left out here (VRANDOM_TEST_STATS_AT); T.done names
-- them all.
function T.away(what)
  if T.stats_at then T.left_out[#T.left_out + 1] = what end
  return T.stats_at ~= nil
end

-- draw() gives a cell, 1 to #p, of probability p[i]; the line printed
-- names the fault.  One check, counted.
function T.cells(what, p, draw, fault)
  if T.away(what) then return true end
  local k, pmin, counts, bad = #p, 1, {}, nil
  for i = 1, k do counts[i] = 0; pmin = math.min(pmin, p[i]) end
  local z = T.limit(k)
  local need = T.need(pmin, z)
  local n = T.sample(need)
  for _ = 1, n do
    local c = draw()
    if counts[c] then counts[c] = counts[c] + 1 else bad = bad or c end
  end
  local worst, at = 0, 1
  for i = 1, k do
    local d = math.abs(counts[i] - n * p[i]) / math.sqrt(n * p[i] * (1 - p[i]))
    if d > worst then worst, at = d, i end
  end
  print(("# %s: %d draws, %d cells, max |z| %.2f (cell %d); bound %.2f (false alarm %.0e), " ..
    "power %.4f against %s %.0f%% too often%s"):format(what, n, k, worst, at, z, T.alpha,
    T.power(pmin, z, n), fault or "one cell", 100 * T.excess, T.kept(n, need)))
  return T.check(worst <= z and bad == nil and n >= need,
    ("%s: max |z| %.2f, bound %.2f%s%s"):format(what, worst, z, bad and ", a cell " .. tostring(bad) or "",
      n < need and (", %d draws below the %d power %g needs"):format(n, need, T.want) or ""))
end

-- x - lo as a count: exact as an integer, past maxint as a float (the
-- difference wraps round 2^64 there).
local function above(x, lo)
  local d = x - lo
  return d < 0 and d + 2 ^ 64 or d
end

-- f(lo, up) into cells: one a value up to 16 values, else 16 of
-- span / 16 values (rounded either way: value o goes to cell
-- floor(16 o / span)).
function T.uniform(what, lo, up, f)
  local span = above(up, lo) + 1.0
  local k = span <= 16 and span or 16
  local p = {}
  for i = 1, k do p[i] = (math.ceil(i * span / k) - math.ceil((i - 1) * span / k)) / span end
  return T.cells(what, p, function()
    local r = f(lo, up)
    if r < lo or r > up then return nil end
    return math.floor((above(r, lo) + 0.0) * k / span) + 1
  end, span <= 16 and "one value" or "one sixteenth of the range")
end

-- Each of the low w bits of draw() (an integer below 2^w, w <= 53) a
-- cell of its own, 1 with probability 1/2; bitof(v, b), where given,
-- reads bit b (64-bit integers).
function T.bits(what, w, draw, bitof)
  if T.away(what) then return true end
  local z = T.limit(w)
  local need = T.need(0.5, z)
  local n, ones = T.sample(need), {}
  for b = 0, w - 1 do ones[b] = 0 end
  for _ = 1, n do
    local v = draw()
    for b = 0, w - 1 do
      local bit = bitof and bitof(v, b) or v % 2
      ones[b] = ones[b] + bit
      if not bitof then v = (v - bit) / 2 end
    end
  end
  local worst, at = 0, 0
  for b = 0, w - 1 do
    local d = math.abs(ones[b] - n / 2) / math.sqrt(n / 4)
    if d > worst then worst, at = d, b end
  end
  print(("# %s: %d draws, %d bits, max |z| %.2f (bit %d); bound %.2f (false alarm %.0e), " ..
    "power %.4f against one bit 1 %.0f%% too often%s"):format(what, n, w, worst, at, z,
    T.alpha, T.power(0.5, z, n), 100 * T.excess, T.kept(n, need)))
  return T.check(worst <= z and n >= need, ("%s: max |z| %.2f, bound %.2f%s"):format(what, worst, z,
    n < need and (", %d draws below the %d power %g needs"):format(n, need, T.want) or ""))
end

-- A part that cannot run here: its reason, and the script's status 77
-- (Automake's SKIP) once the rest has passed.
function T.skip(why)
  print("# cannot run here: " .. why)
  T.skipped[#T.skipped + 1] = why
end

-- The closing line; a script that checked nothing has failed.
function T.done()
  if #T.left_out > 0 then
    print(("# %d distribution checks left out here, at full power in %s: %s"):format(
      #T.left_out, T.stats_at, table.concat(T.left_out, "; ")))
  end
  print(("%d passed, %d failed"):format(T.passed, T.failed))
  if T.failed > 0 then os.exit(1) end
  if #T.skipped > 0 then
    print("SKIP: " .. table.concat(T.skipped, "; "))
    os.exit(77)
  end
  os.exit(T.passed > 0 and 0 or 1)
end

return T
