-- One generator per coroutine: each owns its own kernel state, so many
-- coroutines (or green threads in a server loop) never queue on one.
--   lua5.4 examples/coroutines.lua
local vrandom = require("vrandom")

local function worker(name)
  return coroutine.wrap(function()
    -- <close> hands the state back when the coroutine ends; the
    -- garbage collector would too, only later.
    local g <close> = vrandom.new()
    for round = 1, 3 do
      coroutine.yield(("%s round %d: roll %d, id %s"):format(
        name, round, g:random(1, 6), g:hex(8)))
    end
  end)
end

local workers = {}
for i = 1, 4 do workers[i] = worker("worker " .. i) end
for round = 1, 3 do
  for i = 1, #workers do print(workers[i]()) end
  if round == 1 then
    print("states in use while 4 workers run: " .. vrandom.info().states_in_use)
  end
end
for i = 1, #workers do workers[i]() end  -- let each finish and close
print("states in use after they finished: " .. vrandom.info().states_in_use)
