-- Session tokens, API keys and UUIDs from the kernel's random bytes.
--   lua5.4 examples/tokens.lua
-- (with vrandom.so on LUA_CPATH, or installed by luarocks)
local vrandom = require("vrandom")

-- A session cookie: 32 random bytes, base64url, fits a URL or a header.
print("session token  " .. vrandom.token())
-- A shorter one for a one-time link: 16 bytes are still 128 bits.
print("link token     " .. vrandom.token(16))
-- An API key as hex, with a prefix that tells people what it is.
print("api key        sk_" .. vrandom.hex(20))
-- Request IDs.
for _ = 1, 3 do print("request id     " .. vrandom.uuid()) end
-- A PIN: vrandom.random(m, n) has math.random's rules, without the bias
-- of "random % 10000" and with the kernel's unpredictability.
print(("pin            %04d"):format(vrandom.random(0, 9999)))
-- A password from an alphabet without look-alikes (no 0/O, 1/l/I).
local alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
local pw = {}
for i = 1, 16 do
  local k = vrandom.random(#alphabet)
  pw[i] = alphabet:sub(k, k)
end
print("password       " .. table.concat(pw))
print("(" .. vrandom._VERSION .. ", backend " .. vrandom.info().backend .. ")")
