local lines = {}
for l in io.lines("mid.txt") do lines[#lines + 1] = l end
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/analyze?moves=" .. lines[(i % #lines) + 1])
end
