-- vrandom.new(): generators, their states, coroutines; shuffle; info.
-- close54.lua adds <close>, which only 5.4 and 5.5 parse.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local T = require("harness")
local vrandom = require("vrandom")

local function in_use() return vrandom.info().states_in_use end

vrandom.random()   -- this thread takes its state now, not mid-count
local info = vrandom.info()
-- Only the vDSO backend keeps states in the pool; the others count none.
local pooled = info.backend == "vdso"
local base = in_use()
print("# backend " .. info.backend)

local function states(want, what)
  T.eq(in_use(), pooled and want or 0, what .. ": states in use")
end

-- info(): the fields of struct vrandom_info, consistent with each other.
T.check(({ vdso = true, syscall = true, urandom = true })[info.backend],
  "info().backend is a backend name")
for _, k in ipairs { "state_size", "state_stride", "mmap_prot", "mmap_flags",
    "arena_pages", "states_total", "states_in_use", "handles_placeholder",
    "syscall_min" } do
  T.eq(T.type(info[k]), "integer", "info()." .. k .. " is an integer")
end
if pooled then
  T.check(info.state_size > 0 and info.state_stride >= info.state_size,
    "info(): stride holds a state")
  T.check(info.states_total >= info.states_in_use and info.states_in_use >= 1,
    "info(): the module's own state is counted")
  T.check(info.syscall_min == 0 or info.syscall_min >= 256,
    "info(): syscall_min is never (0) or at least 256")
  T.check(type(info.vdso_symbol) == "string" and type(info.vdso_version) == "string",
    "info(): vDSO symbol and version named")
else
  T.eq(info.vdso_symbol, nil, "info(): no vDSO symbol without the vDSO")
end
-- Which binding serves: LuaJIT's FFI path unless VRANDOM_LUAJIT_FFI=0.
T.eq(info.binding, T.lua == "luajit" and os.getenv("VRANDOM_LUAJIT_FFI") ~= "0" and
  "ffi" or "classic", "info().binding")
T.check(type(vrandom._VERSION) == "string" and
  vrandom._VERSION:find("^vrandom %d+%.%d+%.%d+$") ~= nil,
  "_VERSION is 'vrandom X.Y.Z': " .. tostring(vrandom._VERSION))

-- A generator: its name, its methods, its state.
do
  local g = vrandom.new()
  states(base + 1, "new()")
  -- luaL_newmetatable sets __name from 5.3 on.
  T.eq(getmetatable(g).__name, T.ints and "vrandom.generator" or nil, "__name")
  T.check(tostring(g):find("^vrandom%.generator %(0?x?%x+%)$") ~= nil,
    "tostring of an open generator: " .. tostring(g))
  T.eq(T.type(g:random(1, 6)), "integer", "g:random(1, 6)")
  T.eq(#g:bytes(16), 16, "g:bytes(16)")
  T.eq(#g:hex(4), 8, "g:hex(4)")
  T.eq(#g:token(), 43, "g:token()")
  T.eq(#g:uuid(), 36, "g:uuid()")
  local t = {}
  T.eq(g:shuffle(t), t, "g:shuffle(t) returns t")
  g:close()
  states(base, "close()")
  T.eq(tostring(g), "vrandom.generator (closed)", "tostring of a closed generator")
  for _, m in ipairs { "random", "bytes", "hex", "token", "uuid", "shuffle" } do
    T.raises("generator is closed", "closed g:" .. m, function()
      local r = g[m](g, m == "shuffle" and {} or 1)
      return r
    end)
  end
  T.check(pcall(g.close, g), "close() twice is harmless")
  states(base, "second close()")
  T.raises("vrandom.generator expected", "a method on a stranger",
    function() return g.bytes(io.stdout, 1) end)
  T.raises("vrandom.generator expected", "close on a stranger", g.close, {})
end

-- <close> (5.4 on) and the garbage collector give the states back too.
if T.lua == "5.4" or T.lua == "5.5" then
  assert(loadfile(here .. "/close54.lua"))(T, vrandom, states, base)
end
do
  local gs = {}
  for i = 1, 40 do gs[i] = vrandom.new(); gs[i]:random() end
  states(base + 40, "40 live generators")
  for i = 1, 10 do gs[i]:close() end
  states(base + 30, "10 of 40 closed")
  gs = nil
  collectgarbage("collect")
  collectgarbage("collect")
  states(base, "the rest collected")
  -- Churn: a closed generator's state is taken again, so the pool does
  -- not grow; dropped ones all come back at the next full collection.
  local total = vrandom.info().states_total
  for _ = 1, 2000 do vrandom.new():close() end
  if pooled then
    T.eq(vrandom.info().states_total, total, "2000 new():close() reuse one state")
  end
  for _ = 1, 2000 do local _ = vrandom.new() end
  collectgarbage("collect")
  collectgarbage("collect")
  states(base, "after 2000 dropped generators")
end

-- 50 coroutines, each with its own generator, resumed in turn: all of
-- their output distinct, every state back once they finish (close54.lua
-- does it again with <close>).
do
  local n, rounds, seen, dup, count = 50, 20, {}, 0, 0
  local cos = {}
  for i = 1, n do
    cos[i] = coroutine.wrap(function()
      local g = vrandom.new()
      for _ = 1, rounds do coroutine.yield(g:bytes(16)) end
      g:close()
      return nil
    end)
  end
  for r = 1, rounds do
    for i = 1, n do
      local v = cos[i]()
      count = count + 1
      if seen[v] then dup = dup + 1 end
      seen[v] = true
    end
    if r == 1 then states(base + n, "50 coroutines running") end
  end
  for i = 1, n do cos[i]() end   -- run each to its end: close
  T.eq(count, n * rounds, "every coroutine answered every round")
  T.eq(dup, 0, "1000 outputs of 50 interleaved generators all distinct")
  states(base, "50 coroutines finished")
end

-- shuffle: a permutation, in place, uniform over the orderings.
local function sorted_copy(t)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  table.sort(c)
  return c
end
for _, who in ipairs { "vrandom", "generator" } do
  local g = vrandom.new()
  local shuffle = who == "vrandom" and vrandom.shuffle or function(t) return g:shuffle(t) end
  local t = {}
  for i = 1, 1000 do t[i] = i end
  local same = shuffle(t)
  T.eq(same, t, who .. ": shuffle returns its argument")
  local c, ok, moved = sorted_copy(t), #t == 1000, 0
  for i = 1, 1000 do
    ok = ok and c[i] == i
    if t[i] ~= i then moved = moved + 1 end
  end
  T.check(ok, who .. ": shuffle of 1..1000 is a permutation")
  T.check(moved > 900, who .. ": shuffle moved most elements (" .. moved .. ")")
  T.eq(#shuffle({}), 0, who .. ": shuffle({})")
  T.eq(shuffle({ "x" })[1], "x", who .. ": shuffle of one")

  -- Every order of 3 and of 4 elements a cell (harness.lua's T.cells):
  -- the sample finds one order 5% too often.  Each draw shuffles the
  -- table afresh from 1..n: shuffling a shuffled one would even out a
  -- bias.
  for n = 3, 4 do
    local cell, p, a = {}, {}, {}
    local function code(s)
      local c = 0
      for i = 1, n do c = c * n + s[i] - 1 end
      return c
    end
    local function orders(k, used)
      if k > n then p[#p + 1] = 0; cell[code(a)] = #p return end
      for v = 1, n do
        if not used[v] then
          used[v], a[k] = true, v
          orders(k + 1, used)
          used[v] = nil
        end
      end
    end
    orders(1, {})
    for i = 1, #p do p[i] = 1 / #p end
    local s = {}
    T.cells(("%s: shuffle of %d"):format(who, n), p, function()
      for i = 1, n do s[i] = i end
      return cell[code(shuffle(s))]
    end, "one order")
  end
  -- Each element lands in each position evenly.
  local pos = {}
  for _ = 1, T.draws(10000, 25) do
    local s = shuffle({ 1, 2, 3, 4, 5 })
    for i = 1, 5 do
      local k = (s[i] - 1) * 5 + i
      pos[k] = (pos[k] or 0) + 1
    end
  end
  T.check(T.chisq(pos, 25) < T.chilimit(24), who .. ": each element in each place evenly")
  T.raises("table expected, got number", who .. ": shuffle(5)", shuffle, 5)
  g:close()
end
-- Metamethods are honoured, as in 5.3's table.sort; 5.1 and LuaJIT know
-- no __len for tables (# ignores it too), so the proxy is empty there.
do
  local store = { "a", "b", "c", "d" }
  local proxy = setmetatable({}, {
    __len = function() return #store end,
    __index = function(_, k) return store[k] end,
    __newindex = function(_, k, v) store[k] = v end,
  })
  vrandom.shuffle(proxy)
  local c = sorted_copy(store)
  T.eq(table.concat(c), "abcd", "shuffle through __index/__newindex/__len")
  T.eq(next(proxy), nil, "the proxy itself stays empty")
  if T.lua == "5.1" or T.lua == "luajit" then
    T.eq(table.concat(store), "abcd", "no __len: nothing shuffled")
  else
    local moved = false
    for _ = 1, 20 do
      vrandom.shuffle(proxy)
      moved = moved or table.concat(store) ~= "abcd"
    end
    T.check(moved, "shuffle through __len moves the elements")
  end
end

-- 5.1 and 5.2 blame the upper bound, as their math.random does.
T.raises(("bad argument #%d to 'random' (interval is empty)"):format(T.ints and 1 or 2),
  "vrandom.random error names the call",
  function() local r = vrandom.random(2, 1) return r end)

collectgarbage("collect")
states(base, "at the end")
T.done()
