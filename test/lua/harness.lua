-- The smallest harness that will do: counts checks, names the failures,
-- ends with the "N passed, N failed" line that scripts/test-all.sh greps.
local T = { passed = 0, failed = 0 }

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

function T.done()
  print(("%d passed, %d failed"):format(T.passed, T.failed))
  os.exit(T.failed == 0 and 0 or 1)
end

return T
