// Run: PAYMENT_SANDBOX_PUBLIC_KEY=webhook-public-key.pem go run main.go
package main

import (
	"crypto"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"os"
	"strings"
	"sync"
)

var (
	secret    = os.Getenv("PAYMENT_SANDBOX_WEBHOOK_SECRET") // only with --webhook-signing hmac
	publicKey *rsa.PublicKey
	mu        sync.Mutex
	handled   = map[[2]string]bool{} // (ll_transaction_id, status) pairs already processed: your database in production
	orders    = map[string]*order{}  // merchant_transaction_id -> what this build believes: your orders table
)

type order struct {
	PaymentStatus  *string `json:"payment_status"`
	RefundedAmount int64   `json:"refunded_amount"`
}

func orderOf(id string) *order {
	if orders[id] == nil {
		orders[id] = &order{}
	}
	return orders[id]
}

// apply applies a verified event once (mu held): a known outcome sets the order's status, a refund adds its amount.
func apply(e event) {
	if e.RefundData != nil {
		orderOf(e.OriginalID).RefundedAmount += e.RefundData.Amount
	}
	if e.PaymentData != nil && (e.PaymentData.Status == "SUCCEEDED" || e.PaymentData.Status == "FAILED") {
		status := e.PaymentData.Status
		orderOf(e.MerchantID).PaymentStatus = &status
	} // any other status is acknowledged and not taken as paid
}

// orderState answers what this build believes, for check-webhooks --state-url http://127.0.0.1:$PORT/orders
func orderState(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/orders/")
	mu.Lock()
	o := order{}
	if orders[id] != nil {
		o = *orders[id]
	}
	body, _ := json.Marshal(o)
	mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

func verified(raw []byte, signature string) bool {
	if secret != "" { // HMAC variant: hex HMAC-SHA256 of the raw body
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write(raw)
		given, err := hex.DecodeString(signature)
		return err == nil && hmac.Equal(given, mac.Sum(nil))
	}
	sig, err := base64.StdEncoding.DecodeString(signature) // RSA-SHA256 (PKCS #1 v1.5), base64
	digest := sha256.Sum256(raw)
	return err == nil && rsa.VerifyPKCS1v15(publicKey, crypto.SHA256, digest[:], sig) == nil
}

type event struct {
	ID          string `json:"ll_transaction_id"`
	MerchantID  string `json:"merchant_transaction_id"`
	OriginalID  string `json:"original_transaction_id"`
	PaymentData *struct {
		Status string `json:"payment_status"`
	} `json:"payment_data"`
	RefundData *struct {
		Status string `json:"refund_status"`
		Amount int64  `json:"refund_amount"`
	} `json:"refund_data"`
}

func webhooks(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	raw, err := io.ReadAll(r.Body) // the bytes received: never verify re-encoded JSON
	signature := r.Header.Get("signature")
	if err != nil || signature == "" || !verified(raw, signature) {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var e event
	if err := json.Unmarshal(raw, &e); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	status := ""
	if e.PaymentData != nil {
		status = e.PaymentData.Status
	} else if e.RefundData != nil {
		status = e.RefundData.Status
	}
	// One transaction can move PROCESSING -> SUCCEEDED: a repeat is the same id with the same status.
	key := [2]string{e.ID, status}
	mu.Lock()
	seen := handled[key]
	handled[key] = true
	if !seen {
		apply(e)
	}
	mu.Unlock()
	if seen {
		log.Printf("already handled: %s %s", e.ID, status)
	} else {
		log.Printf("webhook verified: %s %s (%s)", status, e.ID, e.MerchantID)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"code":"200","message":"SUCCESS"}`))
}

func main() {
	if secret == "" {
		pemBytes, err := os.ReadFile(os.Getenv("PAYMENT_SANDBOX_PUBLIC_KEY"))
		if err != nil {
			log.Fatal(err)
		}
		block, _ := pem.Decode(pemBytes)
		if block == nil {
			log.Fatal("no PEM block in PAYMENT_SANDBOX_PUBLIC_KEY")
		}
		key, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			log.Fatal(err)
		}
		publicKey = key.(*rsa.PublicKey)
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	http.HandleFunc("/webhooks", webhooks)
	http.HandleFunc("/orders/", orderState)
	log.Printf("webhook handler on http://127.0.0.1:%s/webhooks", port)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}
