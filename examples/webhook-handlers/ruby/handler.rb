# Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem ruby handler.rb
require "json"
require "openssl"
require "socket"
require "uri"

PORT = Integer(ENV.fetch("PORT", "3000"))
SECRET = ENV["PAYMENT_SANDBOX_WEBHOOK_SECRET"] # only with --webhook-signing hmac
PUBLIC_KEY = OpenSSL::PKey.read(File.read(ENV.fetch("PAYMENT_SANDBOX_PUBLIC_KEY"))) unless SECRET
HANDLED = {} # [ll_transaction_id, status] pairs already processed: your database in production
ORDERS = Hash.new { |h, id| h[id] = { "payment_status" => nil, "refunded_amount" => 0 } } # your orders table

# Applies a verified event once: a known outcome sets the order's status, a refund adds its amount.
def apply(event)
  if (refund = event["refund_data"])
    ORDERS[event["original_transaction_id"]]["refunded_amount"] += refund["refund_amount"]
  end
  status = event.dig("payment_data", "payment_status")
  # Any other status (a later version may add some) is acknowledged and not taken as paid.
  ORDERS[event["merchant_transaction_id"]]["payment_status"] = status if %w[SUCCEEDED FAILED].include?(status)
end

def verified?(raw, signature)
  if SECRET # HMAC variant: hex HMAC-SHA256 of the raw body
    OpenSSL.secure_compare(OpenSSL::HMAC.hexdigest("SHA256", SECRET, raw), signature)
  else # RSA-SHA256 (PKCS #1 v1.5), base64
    PUBLIC_KEY.verify("SHA256", signature.unpack1("m0"), raw)
  end
rescue ArgumentError, OpenSSL::PKey::PKeyError
  false
end

ACK = '{"code":"200","message":"SUCCESS"}'

# Returns the HTTP status and body for one request.
def handle(method, path, headers, raw)
  if method == "GET" && path.start_with?("/orders/") # for check-webhooks --state-url http://127.0.0.1:$PORT/orders
    id = URI.decode_www_form_component(path.delete_prefix("/orders/"))
    return [200, JSON.generate(ORDERS.fetch(id, { "payment_status" => nil, "refunded_amount" => 0 }))]
  end
  return [404, ""] unless method == "POST" && path == "/webhooks"
  signature = headers["signature"]
  return [401, ""] unless signature && verified?(raw, signature)
  event = JSON.parse(raw)
  id = event["ll_transaction_id"]
  status = event.dig("payment_data", "payment_status") || event.dig("refund_data", "refund_status")
  # One transaction can move PROCESSING -> SUCCEEDED: a repeat is the same id with the same status.
  if HANDLED[[id, status]]
    puts "already handled: #{id} #{status}"
  else
    HANDLED[[id, status]] = true
    apply(event)
    puts "webhook verified: #{status} #{id} (#{event["merchant_transaction_id"]})"
  end
  [200, ACK]
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
    status, body = handle(method, path, headers, raw)
    client.write("HTTP/1.1 #{status} #{{ 200 => "OK", 401 => "Unauthorized", 404 => "Not Found" }[status]}\r\n" \
                 "Content-Type: application/json\r\nContent-Length: #{body.bytesize}\r\nConnection: close\r\n\r\n#{body}")
  rescue StandardError => e
    warn "webhook handler: #{e.message}"
  ensure
    client.close
  end
end
