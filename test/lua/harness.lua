-- The smallest harness that will do: counts checks, names the failures,
-- ends with the "N passed, N failed" line that scripts/test-all.sh greps.
-- The scripts run under Lua 5.1 to 5.4 and LuaJIT; what differs between
-- them is asked here.
local T = { passed = 0, failed = 0, skipped = {} }

-- "5.1", "5.2", "5.3", "5.4" or "luajit".
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

-- The sample of a statistical check.  VRANDOM_TEST_SCALE (0 < s <= 1)
-- shrinks it where a run repeats the checks on another backend: the
-- bytes' mapping is the same there, and the draws cost a system call (a
-- file's open, read and close for /dev/urandom; in an emulated machine,
-- far more).  Never below 50 a bucket, where chi-square still holds.
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

-- A part that cannot run here: its reason, and the script's status 77
-- (Automake's SKIP) once the rest has passed.
function T.skip(why)
  print("# cannot run here: " .. why)
  T.skipped[#T.skipped + 1] = why
end

-- The closing line; a script that checked nothing has failed.
function T.done()
  print(("%d passed, %d failed"):format(T.passed, T.failed))
  if T.failed > 0 then os.exit(1) end
  if #T.skipped > 0 then
    print("SKIP: " .. table.concat(T.skipped, "; "))
    os.exit(77)
  end
  os.exit(T.passed > 0 and 0 or 1)
end

return T
