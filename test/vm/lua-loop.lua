-- N (default 100,000) vrandom.random() calls for test/vm/count to count
-- the getrandom system calls of; nothing else (info() would measure sizes
-- with system calls of its own).  Exits non-zero when the draws never set
-- a bit.
local r = require("vrandom").random
local acc = 0
for _ = 1, tonumber(arg[1]) or 100000 do acc = acc | r(0, 0xffff) end
os.exit(acc == 0xffff)
