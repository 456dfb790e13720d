wrk.method = "POST"
wrk.body = '{"agent": "easy", "moves": "4453"}'
wrk.headers["Content-Type"] = "application/json"
