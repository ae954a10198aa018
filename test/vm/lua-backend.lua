-- vrandom-lua's backend is the one this machine must give: the kernel's
-- vDSO where it exports getrandom, else the system call.
-- Usage: vrandom-lua lua-backend.lua vdso|syscall
local want = arg[1]
local i = require("vrandom").info()
print(("backend %s (expected %s), %s"):format(i.backend, want,
  i.backend == "vdso" and ("state %d B"):format(i.state_size or 0) or "no vDSO state"))
os.exit(i.backend == want)
