-- The appliance's application: what a device does with randomness at
-- boot.  Runs under the static vrandom-lua, where vrandom is built in:
-- require needs no package.cpath and no shared object.
local vrandom = require("vrandom")

-- A device id, made once at first boot and kept (here: printed).
print("device id      " .. vrandom.uuid())
-- A session token for the management interface: 32 bytes, base64url.
print("session token  " .. vrandom.token())
-- A one-time pairing code, without modulo bias.
print(("pairing code   %06d"):format(vrandom.random(0, 999999)))

-- A shuffled deck, in place (Fisher-Yates on the kernel's bytes).
local deck = {}
for _, suit in ipairs { "S", "H", "D", "C" } do
  for _, rank in ipairs { "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K" } do
    deck[#deck + 1] = rank .. suit
  end
end
vrandom.shuffle(deck)
print("deck           " .. table.concat(deck, " ", 1, 13))
print("               " .. table.concat(deck, " ", 14, 26))
print("               " .. table.concat(deck, " ", 27, 39))
print("               " .. table.concat(deck, " ", 40, 52))

-- Where the bytes came from: the kernel's vDSO (arm64 6.12) or the
-- getrandom system call (armhf, whose kernel has no vDSO getrandom).
local i = vrandom.info()
print("backend        " .. i.backend ..
  (i.backend == "vdso" and (" (state %d B, %d states on %d page(s))"):format(
    i.state_size, i.states_total, i.arena_pages) or ""))
print(vrandom._VERSION .. " on " .. _VERSION)
