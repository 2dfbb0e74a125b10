# Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem ruby handler.rb
require "json"
require "openssl"
require "socket"

PORT = Integer(ENV.fetch("PORT", "3000"))
SECRET = ENV["PAYMENT_SANDBOX_WEBHOOK_SECRET"] # only with --webhook-signing hmac
PUBLIC_KEY = OpenSSL::PKey.read(File.read(ENV.fetch("PAYMENT_SANDBOX_PUBLIC_KEY"))) unless SECRET
HANDLED = {} # ll_transaction_id already processed: your database in production

def verified?(raw, signature)
  if SECRET # HMAC variant: hex HMAC-SHA256 of the raw body
    OpenSSL.secure_compare(OpenSSL::HMAC.hexdigest("SHA256", SECRET, raw), signature)
  else # RSA-SHA256 (PKCS #1 v1.5), base64
    PUBLIC_KEY.verify("SHA256", signature.unpack1("m0"), raw)
  end
rescue ArgumentError, OpenSSL::PKey::PKeyError
  false
end

# Returns the HTTP status for one request.
def handle(method, path, headers, raw)
  return 404 unless method == "POST" && path == "/webhooks"
  signature = headers["signature"]
  return 401 unless signature && verified?(raw, signature)
  event = JSON.parse(raw)
  id = event["ll_transaction_id"]
  if HANDLED[id]
    puts "already handled: #{id}"
  else
    HANDLED[id] = true
    status = event.dig("payment_data", "payment_status") || event.dig("refund_data", "refund_status")
    puts "webhook verified: #{status} #{id} (#{event["merchant_transaction_id"]})"
  end
  200
end

# A plain HTTP/1.1 server from the standard library (WEBrick left it in Ruby 3.0);
# in Rails or Sinatra, call handle with request.raw_post / request.body.read.
server = TCPServer.new("127.0.0.1", PORT)
$stdout.sync = true
puts "webhook handler on http://127.0.0.1:#{PORT}/webhooks"
loop do
  client = server.accept
  begin
    method, path = client.gets.to_s.split
    headers = {}
    while (line = client.gets) && line != "\r\n"
      name, value = line.split(":", 2)
      headers[name.strip.downcase] = value.to_s.strip
    end
    raw = client.read(headers["content-length"].to_i) # the bytes received
    status = handle(method, path, headers, raw)
    body = status == 200 ? '{"code":"200","message":"SUCCESS"}' : ""
    client.write("HTTP/1.1 #{status} #{{ 200 => "OK", 401 => "Unauthorized", 404 => "Not Found" }[status]}\r\n" \
                 "Content-Type: application/json\r\nContent-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  rescue StandardError => e
    warn "webhook handler: #{e.message}"
  ensure
    client.close
  end
end
