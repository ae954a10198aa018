-- vrandom-lua's backend is the one this machine must give (the kernel's
-- vDSO where it exports getrandom, else the system call), or the one
-- VRANDOM_BACKEND forces; and it serves: 600 rolls of a die within 1..6
-- showing every face, two 16-byte strings that differ, a version 4 UUID
-- from a generator of its own.  The statistics are random.lua's.
-- Usage: vrandom-lua lua-backend.lua vdso|syscall|urandom
local vrandom = require("vrandom")
local want = arg[1]
local i = vrandom.info()
print(("backend %s (expected %s), %s"):format(i.backend, want,
  i.backend == "vdso" and ("state %d B"):format(i.state_size or 0) or "no vDSO state"))
local ok, faces, seen = i.backend == want, 0, {}
for _ = 1, 600 do
  local r = vrandom.random(6)
  ok = ok and r % 1 == 0 and r >= 1 and r <= 6
  if not seen[r] then seen[r], faces = true, faces + 1 end
end
local a, b = vrandom.bytes(16), vrandom.bytes(16)
local g = vrandom.new()
local u = g:uuid()
g:close()
ok = ok and faces == 6 and #a == 16 and #b == 16 and a ~= b and
  u:match("^%x%x%x%x%x%x%x%x%-%x%x%x%x%-4%x%x%x%-[89ab]%x%x%x%-%x+$") ~= nil and #u == 36
print(("%d faces in 600 rolls, bytes %s, uuid %s: %s"):format(faces,
  a ~= b and "differ" or "repeat", u, ok and "ok" or "FAILED"))
os.exit(ok)
