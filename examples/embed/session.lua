-- Run by the embedding host (host.c), which registered vrandom before:
-- session tokens for a login, and a shuffled order of upstream servers.
--   ./host session.lua [TOKENS]
local n = tonumber((...)) or 3

local g <close> = vrandom.new()     -- this script's own generator
for i = 1, n do
  print("token " .. g:token())        -- 32 bytes, base64url, 43 characters
end

local servers = { "ntp1", "ntp2", "ntp3", "ntp4", "ntp5", "ntp6", "ntp7", "ntp8" }
vrandom.shuffle(servers)
print("order " .. table.concat(servers, " "))
print("backend " .. vrandom.info().backend)
